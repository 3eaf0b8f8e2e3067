#!/usr/bin/env node
// A small Tarneeb 41 engine (ruleset card-kings-41) speaking the line protocol of
// spec/protocol/README.md. Written from that page and spec/rulesets/card-kings-41.toml
// only: no code or data from the Python package. Node 20, no npm packages.
//
//   node engine.js                    serve the protocol on stdin/stdout
//   node engine.js --mutant NAME      the same with one planted rule bug (or JS_ENGINE_MUTANT=NAME)
//   node engine.js --list-mutants
'use strict';

const MUTANTS = {
  'live-failed-pays': 'live play only: a failed bid also pays its value to each opponent (the score_hand query stays right)',
  'partner-zero': 'a team qualifies with one partner at the target and the other at 0 (should be more than 0)',
  'redeal-next': 'after a bid total below 11 the next seat deals (should be the same dealer)',
};

function argMutant() {
  const i = process.argv.indexOf('--mutant');
  const name = i >= 0 ? process.argv[i + 1] : (process.env.JS_ENGINE_MUTANT || '');
  if (name && !(name in MUTANTS)) {
    process.stderr.write(`unknown mutant ${name}; known: ${Object.keys(MUTANTS).join(', ')}\n`);
    process.exit(2);
  }
  return name;
}
const MUTANT = argMutant();

// ---------------------------------------------------------------- cards
const SUITS = 'CDHS';
const RANKS = '23456789TJQKA';
const suit = (c) => c[1];
const rank = (c) => RANKS.indexOf(c[0]);
const isCard = (c) => typeof c === 'string' && c.length === 2 && RANKS.includes(c[0]) && SUITS.includes(c[1]);
// the suit of the same colour: hearts <-> diamonds, spades <-> clubs
const PARTNER_SUIT = { H: 'D', D: 'H', S: 'C', C: 'S' };

// ---------------------------------------------------------------- the ruleset
const RULESET = 'card-kings-41';
const RULES = {
  target: 41,
  bids: [2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13], // 2 to 13, never 6
  totalMin: 11, // a lower bid total cancels the deal
};
const next = (seat) => (seat + 1) % 4; // dealing, bidding and play go to the right

class Refusal extends Error {}
function need(cond, msg) { if (!cond) throw new Refusal(msg); }

function checkRules(req) {
  need(req.ruleset === RULESET, `unsupported ruleset ${JSON.stringify(req.ruleset)} (this engine plays ${RULESET})`);
  const opts = req.options || {};
  need(typeof opts === 'object' && Object.keys(opts).length === 0, `${RULESET} has no options: ${JSON.stringify(opts)}`);
}

function seatOf(v) { need(Number.isInteger(v) && v >= 0 && v < 4, `bad seat ${JSON.stringify(v)}`); return v; }
function fourInts(v, what) {
  need(Array.isArray(v) && v.length === 4 && v.every(Number.isInteger), `bad ${what} ${JSON.stringify(v)}`);
  return v.slice();
}
function cardsOf(v, n) {
  need(Array.isArray(v) && v.every(isCard) && (n === undefined || v.length === n), `bad cards ${JSON.stringify(v)}`);
  return v.slice();
}

// a call "bid:N" -> N, or null when it is not a legal bid here (pass, a suit, out of range, 6)
function bidValue(call) {
  const m = /^bid:(\d{1,2})$/.exec(call || '');
  if (!m) return null;
  const n = Number(m[1]);
  return RULES.bids.includes(n) ? n : null;
}

// ---------------------------------------------------------------- single rules
function playLegal(hand, trick, card) {
  if (!hand.includes(card)) return false;
  if (trick.length === 0) return true;
  const led = suit(trick[0]);
  return suit(card) === led || !hand.some((c) => suit(c) === led);
}

// index in the trick (0 = leader) of the winning card
function bestIndex(trick, trump) {
  let best = 0;
  for (let i = 1; i < trick.length; i++) {
    const c = trick[i], b = trick[best];
    if (suit(c) === suit(b) ? rank(c) > rank(b) : suit(c) === trump) best = i;
  }
  return best;
}

function scoreDeltas(bids, tricks) { // each player on their own tricks: the bid is won or lost
  return bids.map((b, s) => (tricks[s] >= b ? b : -b));
}

function redealDealer(dealer) { // after a cancelled deal the same player deals again
  return MUTANT === 'redeal-next' ? next(dealer) : dealer;
}

function qualifies(a, b, target) {
  const low = MUTANT === 'partner-zero' ? 0 : 1;
  return (a >= target && b >= low) || (b >= target && a >= low);
}

function outcome(scores, target) { // team that wins after the deal, or null
  const q = [qualifies(scores[0], scores[2], target), qualifies(scores[1], scores[3], target)];
  if (q[0] && q[1]) {
    const s0 = scores[0] + scores[2], s1 = scores[1] + scores[3];
    return s0 === s1 ? null : (s0 > s1 ? 0 : 1); // equal sums: another deal is played
  }
  return q[0] ? 0 : q[1] ? 1 : null;
}

// ---------------------------------------------------------------- a deal
class Deal {
  constructor(dealer, scores, target, deck) {
    this.dealer = dealer;
    this.before = scores;
    this.target = target;
    this.hands = [[], [], [], []];
    deck.forEach((c, i) => this.hands[(dealer + (i % 4) + 1) % 4].push(c));
    this.revealed = deck[51];
    this.trump = PARTNER_SUIT[suit(this.revealed)];
    this.phase = 'bidding';
    this.toMove = next(dealer);
    this.bids = [null, null, null, null];
    this.nbids = 0;
    this.trick = [];
    this.leader = null;
    this.tricksWon = [0, 0, 0, 0];
    this.played = 0;
  }

  legal() {
    if (this.phase === 'bidding') return RULES.bids.map((n) => `bid:${n}`);
    if (this.phase === 'play') {
      const hand = this.hands[this.toMove];
      return hand.filter((c) => playLegal(hand, this.trick, c)).map((c) => `play:${c}`);
    }
    return [];
  }

  apply(action) {
    need(typeof action === 'string' && this.legal().includes(action), `illegal action ${JSON.stringify(action)}`);
    const out = {};
    if (this.phase === 'bidding') {
      this.bids[this.toMove] = bidValue(action);
      this.nbids++;
      if (this.nbids < 4) { this.toMove = next(this.toMove); return out; }
      const total = this.bids.reduce((a, b) => a + b, 0);
      if (total < RULES.totalMin) {
        this.finish(true);
      } else {
        this.phase = 'play';
        this.toMove = next(this.dealer); // the first bidder leads
        this.leader = this.toMove;
      }
      return out;
    }
    const card = action.slice(5);
    const hand = this.hands[this.toMove];
    hand.splice(hand.indexOf(card), 1);
    this.trick.push(card);
    this.played++;
    if (this.trick.length < 4) { this.toMove = next(this.toMove); return out; }
    const w = (this.leader + bestIndex(this.trick, this.trump)) % 4;
    out.trick_winner = w;
    this.tricksWon[w]++;
    this.trick = [];
    this.leader = this.toMove = w;
    if (this.played === 52) this.finish(false);
    return out;
  }

  finish(redeal) {
    this.phase = 'over';
    this.toMove = null;
    this.redeal = redeal;
    if (redeal) {
      this.tricksWon = [0, 0, 0, 0];
      this.deltas = [0, 0, 0, 0];
      this.nextDealer = redealDealer(this.dealer);
    } else {
      this.deltas = scoreDeltas(this.bids, this.tricksWon);
      if (MUTANT === 'live-failed-pays') {
        this.bids.forEach((b, s) => {
          if (this.tricksWon[s] < b) { this.deltas[(s + 1) % 4] += b; this.deltas[(s + 3) % 4] += b; }
        });
      }
      this.nextDealer = next(this.dealer);
    }
    this.scores = this.before.map((x, s) => x + this.deltas[s]);
    this.winner = redeal ? null : outcome(this.scores, this.target);
  }

  state() {
    const st = { phase: this.phase, to_move: this.toMove, trump: this.trump, revealed: this.revealed };
    if (this.phase === 'over') {
      Object.assign(st, { redeal: this.redeal, tricks_won: this.tricksWon, deltas: this.deltas,
        scores: this.scores, winner: this.winner, next_dealer: this.nextDealer });
    }
    return st;
  }

  copy() {
    const d = Object.assign(Object.create(Deal.prototype), this);
    d.hands = this.hands.map((h) => h.slice());
    d.trick = this.trick.slice();
    d.tricksWon = this.tricksWon.slice();
    d.bids = this.bids.slice();
    return d;
  }
}

function perft(deal, depth) {
  if (depth === 0 || deal.phase !== 'play') return 1;
  let n = 0;
  for (const a of deal.legal()) {
    const d = deal.copy();
    d.apply(a);
    n += perft(d, depth - 1);
  }
  return n;
}

// ---------------------------------------------------------------- the protocol
let current = null;

function handle(req) {
  switch (req.cmd) {
    case 'hello':
      return { protocol: 2, name: 'js-engine' + (MUTANT ? ` [${MUTANT}]` : ''), rulesets: [RULESET] };
    case 'quit':
      return {};
    case 'start': {
      checkRules(req);
      const deck = cardsOf(req.deck, 52);
      need(new Set(deck).size === 52, 'the deck must hold 52 distinct cards');
      const target = req.target === undefined ? RULES.target : req.target;
      need(Number.isInteger(target), `bad target ${JSON.stringify(target)}`);
      current = new Deal(seatOf(req.dealer), fourInts(req.scores, 'scores'), target, deck);
      return { hands: current.hands.map((h) => h.slice()), ...current.state() };
    }
    case 'legal':
    case 'apply':
    case 'state':
    case 'perft': {
      need(current !== null, 'no deal started');
      if (req.cmd === 'legal') return { seat: current.toMove, actions: current.legal() };
      if (req.cmd === 'apply') { const info = current.apply(req.action); return { ...info, ...current.state() }; }
      if (req.cmd === 'state') return current.state();
      need(Number.isInteger(req.depth) && req.depth >= 0, `bad depth ${JSON.stringify(req.depth)}`);
      return { nodes: perft(current, req.depth) };
    }
    default:
      break;
  }
  checkRules(req);
  switch (req.cmd) {
    case 'play_legal': {
      need(isCard(req.card), `bad card ${JSON.stringify(req.card)}`);
      return { legal: playLegal(cardsOf(req.hand), cardsOf(req.trick), req.card) };
    }
    case 'trick_winner': {
      const trick = cardsOf(req.trick, 4);
      return { winner: (seatOf(req.leader) + bestIndex(trick, req.trump)) % 4 };
    }
    case 'bid_legal':
    case 'bidding_end': {
      const dealer = seatOf(req.dealer);
      need(Array.isArray(req.bids), `bad bids ${JSON.stringify(req.bids)}`); // calls in order, as action texts
      const values = req.bids.map(bidValue);
      need(values.every((v) => v !== null), `an earlier call is not a legal bid: ${JSON.stringify(req.bids)}`);
      if (req.cmd === 'bid_legal') {
        need(values.length < 4, 'the bidding is over');
        return { legal: bidValue(req.bid) !== null };
      }
      need(values.length === 4, 'the bidding is not over');
      const redeal = values.reduce((a, b) => a + b, 0) < RULES.totalMin;
      return { redeal, next_dealer: redeal ? redealDealer(dealer) : null };
    }
    case 'score_hand':
    case 'outcome': {
      const bids = fourInts(req.bids, 'bids'); // integers by seat
      const tricks = fourInts(req.tricks, 'tricks');
      if (req.cmd === 'score_hand') return { deltas: scoreDeltas(bids, tricks) };
      return { winner: outcome(fourInts(req.scores, 'scores'), req.target) };
    }
    default:
      throw new Refusal(`unknown command ${JSON.stringify(req.cmd)}`);
  }
}

function main() {
  if (process.argv.includes('--list-mutants')) {
    for (const [k, v] of Object.entries(MUTANTS)) process.stdout.write(`${k}: ${v}\n`);
    return;
  }
  const rl = require('readline').createInterface({ input: process.stdin, terminal: false });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    let req = null;
    let ans;
    try {
      req = JSON.parse(line);
      need(req !== null && typeof req === 'object' && !Array.isArray(req), 'a request is a JSON object');
      ans = { ok: true, ...handle(req) };
    } catch (e) {
      ans = { ok: false, error: e instanceof Refusal || e instanceof SyntaxError ? e.message : String(e) };
    }
    process.stdout.write(JSON.stringify(ans) + '\n');
    if (req && req.cmd === 'quit') { rl.close(); process.stdout.end(); }
  });
}

main();
