// The score sheet page (/en/score/, /ar/score/). The script keeps the sheets (spec/sheets/ format, version 1) in the
// browser's localStorage and shows what the rules make of them. It decides nothing: after each tap it sends the
// sheet and the hand being written to Python (tarneeb.serve.score.answer: the server's /LANG/score/api, or under the
// offline site Pyodide, window.tarneebScore) and lays out the answer: the seats in bidding order, the numbers the
// pad offers and which the rules take, the hand thrown in or played, the scores, each number's reason, the outcome
// and the next dealer.
(function () {
  "use strict";
  var app = document.getElementById("score-app");
  if (!app) { return; }
  var W = JSON.parse(document.getElementById("score-words").textContent);
  var lang = app.getAttribute("data-lang");
  var KEY = "tarneeb-score-sheets-v1";
  var $ = function (id) { return document.getElementById(id); };
  var T = window.tarneebSheet = { asked: 0, answered: 0, last: null, error: null };
  var cur = null;  // the sheet open: {id, sheet, house, edit, draft}
  var ans = null;  // Python's last answer for it

  function fmt(text, kw) { return text.replace(/\{(\w+)\}/g, function (m, k) { return kw[k] === undefined ? m : kw[k]; }); }
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") { e.textContent = attrs[k]; } else if (k === "cls") { e.className = attrs[k]; } else { e.setAttribute(k, attrs[k]); }
    });
    (kids || []).forEach(function (c) { if (c) { e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); } });
    return e;
  }
  function status(text, bad) { var s = $("score-status"); s.textContent = text || ""; s.className = "score-status" + (bad ? " bad" : ""); }

  // ------------------------------------------------------------------ storage
  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || { sheets: {}, current: null }; } catch (e) { return { sheets: {}, current: null }; }
  }
  function save() {
    var all = load();
    if (cur) {
      all.sheets[cur.id] = { sheet: cur.sheet, house: cur.house, edit: cur.edit, draft: cur.draft, updated: Date.now(),
                             name: ans ? ans.ruleset.name : (all.sheets[cur.id] || {}).name || "" };
      all.current = cur.id;
    } else { all.current = null; }
    localStorage.setItem(KEY, JSON.stringify(all));
  }

  // ------------------------------------------------------------------ asking the rules
  function ask(req) {
    req.lang = lang;
    T.asked += 1;
    var body = JSON.stringify(req), p;
    if (window.tarneebScore) {
      p = window.tarneebScore(body).then(function (text) { return JSON.parse(text); });
    } else {
      p = fetch(app.getAttribute("data-api"), { method: "POST", headers: { "Content-Type": "application/json" }, body: body })
        .then(function (r) { return r.json().then(function (j) { j.status = r.status; return j; }); });
    }
    return p.then(function (j) {
      T.answered += 1;
      if (j.status && j.status >= 400) { var e = new Error(j.error || String(j.status)); e.page = true; throw e; }
      return j;
    });
  }

  function refresh() {
    var at = cur.edit === null ? cur.sheet.hands.length : cur.edit;
    return ask({ sheet: cur.sheet, house: cur.house, entry: { at: at, hand: cur.draft } }).then(function (a) {
      ans = a; T.last = a; T.error = null;
      save();
      show();
      app.setAttribute("data-answered", String(T.answered));
    }).catch(function (e) {
      T.error = e.message;
      status((e.page ? "" : W.score_unreachable) + e.message, true);
      app.setAttribute("data-answered", String(T.answered));
    });
  }

  // ------------------------------------------------------------------ the list of sheets and a new one
  function startScreen() {
    cur = null; ans = null;
    $("score-sheet").hidden = true;
    $("score-start").hidden = false;
    var list = $("score-list"), all = load();
    list.textContent = "";
    $("score-sheets-head").hidden = !Object.keys(all.sheets).length;
    Object.keys(all.sheets).sort(function (a, b) { return all.sheets[b].updated - all.sheets[a].updated; }).forEach(function (id) {
      var s = all.sheets[id].sheet;
      var open = el("button", { type: "button", cls: "score-open", "data-id": id }, [
        el("bdi", { text: s.players.join(" · ") }), el("br"),
        el("small", { text: (all.sheets[id].name || "") + " · " + fmt(W.score_hand, { n: s.hands.length }) })]);
      open.addEventListener("click", function () { openSheet(id); });
      var del = el("button", { type: "button", cls: "score-del", text: W.score_delete });
      del.addEventListener("click", function () {
        var a = load(); delete a.sheets[id]; if (a.current === id) { a.current = null; }
        localStorage.setItem(KEY, JSON.stringify(a)); startScreen();
      });
      list.appendChild(el("li", {}, [open, del]));
    });
    app.setAttribute("data-screen", "start");
  }

  function openSheet(id) {
    var rec = load().sheets[id];
    if (!rec) { startScreen(); return Promise.resolve(); }
    cur = { id: id, sheet: rec.sheet, house: rec.house || null, edit: rec.edit === undefined ? null : rec.edit, draft: rec.draft || {} };
    $("score-start").hidden = true;
    $("score-sheet").hidden = false;
    app.setAttribute("data-screen", "sheet");
    $("score-house-file").hidden = !cur.house;
    return refresh();
  }

  function newId() { return "s" + Date.now().toString(36) + Math.random().toString(36).slice(2, 6); }

  // a sheet the rules took (begun here or imported): kept as a new sheet of this browser, then opened
  function start(request) {
    return ask(request).then(function (a) {
      cur = { id: newId(), sheet: a.sheet, house: a.house || null, edit: null, draft: {} };
      ans = a;
      save();
      status("");
      return openSheet(cur.id);
    }).catch(function (e) { status((e.page ? "" : W.score_unreachable) + e.message, true); });
  }

  function begin(sheet, house) { return start({ sheet: sheet, house: house }); }

  $("score-new").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var names = [1, 2, 3, 4].map(function (n) { return $("score-player-" + n).value.trim(); });
    if (names.some(function (n) { return !n; })) { status(W.score_names_needed, true); return; }
    var sheet = { format: "tarneeb-score-sheet", version: 1, ruleset: $("score-ruleset").value, options: {},
                  players: names, first_dealer: Number($("score-first").value), hands: [] };
    var file = $("score-house").files[0];
    if (!file) { begin(sheet, null); return; }
    file.text().then(function (text) { sheet.ruleset = file.name; begin(sheet, { name: file.name, text: text }); });
  });
  [1, 2, 3, 4].forEach(function (n) {  // the first dealer is chosen by name
    $("score-player-" + n).addEventListener("input", function () {
      var o = $("score-first").options[n - 1];
      o.textContent = this.value.trim() || fmt(W.score_player, { n: n });
    });
  });
  $("score-import").addEventListener("change", function () {
    var file = this.files[0];
    if (!file) { return; }
    file.text().then(function (text) { return start({ sheet_text: text }); });
    this.value = "";
  });

  // ------------------------------------------------------------------ the sheet
  function num(n) { return el("bdi", { dir: "ltr", text: String(n) }); }

  function show() {
    var a = ans;
    status("");
    $("score-head").textContent = a.ruleset.name;
    $("score-teams").textContent = a.teams[0] + " — " + a.teams[1];
    var prob = $("score-problem");
    prob.hidden = !a.error;
    prob.textContent = "";
    if (a.error) {
      prob.appendChild(whyButton(a.error.text, [a.error.why], "score-problem-why"));
      if (a.error.hand && cur.edit === null) {  // the impossible hand, written again (the ones after it then replayed)
        var fix = el("button", { type: "button", id: "score-fix", text: W.score_edit });
        fix.addEventListener("click", function () { cur.edit = a.error.hand - 1; cur.draft = {}; refresh(); });
        prob.appendChild(fix);
      }
    }
    table(a);
    var out = $("score-outcome");
    out.textContent = "";
    out.setAttribute("data-over", a.outcome.over ? "1" : "0");
    out.setAttribute("data-winner", a.outcome.winner === null ? "" : String(a.outcome.winner));
    out.setAttribute("data-next-dealer", a.next_dealer === null ? "" : String(a.next_dealer));
    if (a.outcome.over) {
      out.appendChild(whyButton(a.outcome.text, [a.outcome.why], "score-winner"));
    } else if (a.next_dealer !== null && !a.error && !(a.entry && !a.entry.closed)) {
      out.appendChild(el("span", { id: "score-next", text: fmt(W.score_next, { n: a.hands + 1, name: a.next_dealer_name }) }));
    }
    entry(a.entry);
  }

  function whyButton(text, whys, id) {
    var b = el("button", { type: "button", cls: "why-link", text: text });
    if (id) { b.id = id; }
    b.addEventListener("click", function () { explain(whys); });
    return b;
  }

  function table(a) {
    var t = $("score-table");
    t.textContent = "";
    var head = el("tr", {}, [el("th", { scope: "col", text: "#" })]);
    a.columns.forEach(function (c) { head.appendChild(el("th", { scope: "col", "data-seat": String(c.seat), text: c.head })); });
    if (!a.ruleset.individual) { head.appendChild(el("th", { scope: "col", text: W.score_contract })); }
    t.appendChild(el("thead", {}, [head]));
    var body = el("tbody");
    a.rows.forEach(function (r) {
      var tr = el("tr", { "data-hand": String(r.hand), "data-dealer": String(r.dealer) });
      if (r.thrown_in) { tr.className = "thrown-in"; }
      var handBtn = el("button", { type: "button", cls: "num hand-num", "aria-label": fmt(W.score_hand, { n: r.hand }) + " · " +
                                   fmt(W.score_deals, { name: r.dealer_name }) }, [num(r.hand)]);
      handBtn.addEventListener("click", function () { explain(r.whys, r.hand - 1); });
      tr.appendChild(el("th", { scope: "row" }, [handBtn, el("small", { cls: "dealer", text: r.dealer_name }),
                                                 r.thrown_in ? el("small", { cls: "thrown", text: W.score_thrown_in }) : null]));
      r.cells.forEach(function (c, i) {
        var td = el("td", { "data-seat": String(a.columns[i].seat), "data-score": String(c.score) });
        if (a.ruleset.individual && a.columns[i].seat === r.dealer) { td.className = "is-dealer"; }
        var b = el("button", { type: "button", cls: "num score" }, [num(c.score)]);
        if (c.why) { b.addEventListener("click", function () { explain([c.why]); }); } else {
          b.addEventListener("click", function () { explain(r.whys, r.hand - 1); });
        }
        td.appendChild(b);
        var small = [];  // the bid and the tricks taken, the change; each number kept left to right
        if (c.bid !== null) { small.push(el("bdi", { dir: "ltr", cls: "bid", text: c.bid + (c.took === null ? "" : "/" + c.took) })); }
        if (c.delta) { small.push(el("bdi", { dir: "ltr", cls: "delta", text: c.delta })); }
        if (small.length) {
          var line = el("small");
          small.forEach(function (x, j) { if (j) { line.appendChild(document.createTextNode(" ")); } line.appendChild(x); });
          td.appendChild(line);
        }
        tr.appendChild(td);
      });
      if (!a.ruleset.individual) {
        var k = r.contract;
        tr.appendChild(el("td", { cls: "contract" }, k ? [el("bdi", { text: k.name + " " + k.bid }),
                                                          k.team_took === null ? null : el("small", {}, [num(k.team_took)])] : []));
      }
      body.appendChild(tr);
    });
    t.appendChild(body);
  }

  function explain(whys, handIndex) {
    var box = $("score-why");
    box.textContent = "";
    box.hidden = false;
    whys.forEach(function (w) {
      var item = el("div", { cls: "why-item" }, [el("p", { cls: "said", text: w.text })]);
      if (w.rule || w.statement) {
        item.appendChild(el("p", {}, [el("strong", { text: W.score_rule + " " }),
                                      el("span", { text: (w.rule ? w.rule + (w.statement ? ": " : "") : "") + w.statement })]));
      }
      if (w.source) { item.appendChild(el("p", { cls: "source" }, [el("strong", { text: W.score_source + " " }), el("span", { text: w.source })])); }
      var d = el("details", { cls: "technical" }, [el("summary", { text: W.score_technical }), el("bdi", { dir: "ltr", cls: "id", text: w.clause })]);
      item.appendChild(d);
      box.appendChild(item);
    });
    if (handIndex !== undefined) {
      var b = el("button", { type: "button", id: "score-edit", text: W.score_edit });
      b.addEventListener("click", function () { editHand(handIndex); });
      box.appendChild(b);
    }
    box.scrollIntoView({ block: "nearest" });
  }

  function editHand(k) {
    var row = ans.rows[k];
    cur.edit = k;
    cur.draft = JSON.parse(JSON.stringify(row.written));
    $("score-why").hidden = true;
    refresh();
  }

  // ------------------------------------------------------------------ the hand being written
  function entry(e) {
    var box = $("score-entry");
    box.textContent = "";
    if (!e || e.closed) { box.hidden = true; return; }
    box.hidden = false;
    var title = fmt(W.score_hand, { n: e.number }) + " · " + fmt(W.score_deals, { name: e.dealer_name });
    box.appendChild(el("h3", { id: "score-entry-title", text: title }));
    if (cur.edit !== null) { box.appendChild(el("p", { cls: "hint", text: fmt(W.score_editing, { n: e.number }) })); }
    var steps = el("ol", { cls: "steps" });
    e.steps.forEach(function (s, i) {
      var label = s.kind === "bid" ? fmt(W.score_bid_of, { name: s.name }) : s.kind === "tricks" ? fmt(W.score_tricks_of, { name: s.name })
        : s.kind === "holder" ? W.score_holder : s.kind === "contract" ? W.score_contract : s.kind === "strain" ? W.score_strain
        : fmt(W.score_team_tricks, { name: s.name, team: s.name || "" });
      var shown = s.shown !== undefined && s.shown !== null ? s.shown : s.value === null ? "·" : String(s.value);
      var b = el("button", { type: "button", cls: "step" + (i === e.next ? " active" : "") + (s.refused ? " refused" : ""),
                             "data-key": s.key, "data-i": String(s.i),
                             "data-seat": s.seat === null || s.seat === undefined ? "" : String(s.seat) }, [el("span", { text: label }), el("b", {}, [el("bdi", { text: shown })])]);
      b.addEventListener("click", function () { clearFrom(s); });
      steps.appendChild(el("li", {}, [b]));
    });
    box.appendChild(steps);
    if (e.error) { box.appendChild(el("p", { cls: "entry-error", role: "alert" }, [whyButton(e.error.text, [e.error.why])])); }
    if (e.thrown_in) { box.appendChild(el("p", { cls: "entry-thrown" }, [whyButton(e.thrown_in.text, [e.thrown_in.why])])); }
    if (e.pad.length) {
      var kind = e.steps[e.next].kind;  // names and trump suits are words: fewer keys a row
      var pad = el("div", { cls: "pad" + (kind === "holder" || kind === "strain" ? " words" : ""), id: "score-pad" });
      e.pad.forEach(function (k) {
        var b = el("button", { type: "button", cls: "key" + (k.ok ? "" : " dim"), "data-value": String(k.value) }, [el("bdi", { text: k.label })]);
        b.addEventListener("click", function () { put(e.steps[e.next], k.value); });
        pad.appendChild(b);
      });
      box.appendChild(pad);
      var step = e.steps[e.next];
      if (step.kind !== "holder" && step.kind !== "strain") {
        var input = el("input", { id: "score-typed", inputmode: "numeric", autocomplete: "off", "aria-label": W.score_type, placeholder: W.score_type });
        var ok = el("button", { type: "button", id: "score-typed-ok", text: W.score_ok });
        var typed = function () { if (input.value.trim()) { put(step, input.value.trim()); } };
        ok.addEventListener("click", typed);
        input.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { ev.preventDefault(); typed(); } });
        box.appendChild(el("div", { cls: "typed" }, [input, ok]));
      }
    }
    e.extras.forEach(function (x) {
      var b = el("button", { type: "button", cls: "extra", id: "score-" + x.key.replace("_", "-"), text: x.key === "all_pass" ? W.score_all_pass : W.score_weak });
      b.addEventListener("click", function () {
        cur.draft = x.key === "all_pass" ? { calls: ["pass", "pass", "pass", "pass"] } : { redeal: "deal.weak-redeal" };
        refresh();
      });
      box.appendChild(b);
    });
    var add = el("button", { type: "button", cls: "primary", id: "score-add", text: cur.edit === null ? W.score_add : W.score_save });
    add.disabled = !e.ready;
    add.addEventListener("click", function () { addHand(e); });
    box.appendChild(add);
    if (cur.edit !== null) {
      var cancel = el("button", { type: "button", id: "score-cancel", text: W.score_cancel });
      cancel.addEventListener("click", function () { cur.edit = null; cur.draft = {}; refresh(); });
      box.appendChild(cancel);
    }
  }

  function put(step, value) {
    var d = cur.draft;
    if (step.key === "bids") {
      d.bids = (d.bids || []).slice(0, step.i);
      d.bids[step.i] = value;
      delete d.tricks_won;
    } else if (step.key === "tricks_won") {
      d.tricks_won = d.tricks_won || [null, null, null, null];
      d.tricks_won[step.i] = value;
    } else if (step.key === "contract") {
      d.contract = d.contract || {};
      d.contract[step.i] = value;
      if (step.i === "seat") { delete d.contract.bid; delete d.contract.strain; }
      if (step.i === "bid") { delete d.contract.strain; }
      delete d.bidding_team_tricks;
    } else if (step.key === "bidding_team_tricks") {
      d.bidding_team_tricks = value;
    }
    refresh();
  }

  function clearFrom(step) {  // tap a written entry: it and the ones after it are written again
    var d = cur.draft;
    if (step.key === "bids") { d.bids = (d.bids || []).slice(0, step.i); delete d.tricks_won; }
    if (step.key === "tricks_won" && d.tricks_won) { d.tricks_won[step.i] = null; }
    if (step.key === "contract" && d.contract) {
      var order = ["seat", "bid", "strain"];
      order.slice(order.indexOf(step.i)).forEach(function (k) { delete d.contract[k]; });
      delete d.bidding_team_tricks;
    }
    if (step.key === "bidding_team_tricks") { delete d.bidding_team_tricks; }
    refresh();
  }

  function addHand(e) {
    if (!e.ready) { return; }
    if (cur.edit === null) { cur.sheet.hands.push(e.hand); } else { cur.sheet.hands[cur.edit] = e.hand; }
    cur.edit = null;
    cur.draft = {};
    $("score-why").hidden = true;
    refresh();
  }

  function undo() {  // the last entry of the hand being written; with none, the last hand back into writing
    var d = cur.draft;
    if (d.bidding_team_tricks !== undefined) { delete d.bidding_team_tricks; } else if (d.tricks_won && d.tricks_won.some(function (x) { return x !== null; })) {
      var i = 3; while (d.tricks_won[i] === null) { i--; } d.tricks_won[i] = null;
    } else if (d.tricks_won) { delete d.tricks_won; if (d.bids) { d.bids.pop(); } } else if (d.bids && d.bids.length) { d.bids.pop(); } else if (d.contract && Object.keys(d.contract).length) {
      var keys = ["strain", "bid", "seat"].filter(function (k) { return d.contract[k] !== undefined; }); delete d.contract[keys[0]];
    } else if (d.calls || d.redeal) { cur.draft = {}; } else if (cur.edit !== null) { cur.edit = null; cur.draft = {}; } else if (cur.sheet.hands.length) {
      cur.draft = JSON.parse(JSON.stringify(ans.rows.length === cur.sheet.hands.length ? ans.rows[ans.rows.length - 1].written : {}));
      cur.sheet.hands.pop();
    }
    refresh();
  }
  $("score-undo").addEventListener("click", undo);

  function download(name, text, type) {
    var a = el("a", { href: URL.createObjectURL(new Blob([text], { type: type })), download: name });
    document.body.appendChild(a); a.click(); a.remove();
  }
  $("score-export").addEventListener("click", function () {
    var out = JSON.parse(JSON.stringify(cur.sheet));
    if (cur.house) { out["x-house"] = cur.house; }
    var day = new Date().toISOString().slice(0, 10);
    download("tarneeb-sheet-" + day + ".json", JSON.stringify(out, null, 2) + "\n", "application/json");
  });
  $("score-house-file").addEventListener("click", function () { download(cur.house.name, cur.house.text, "text/plain"); });
  $("score-back").addEventListener("click", function () { save(); cur = null; save(); startScreen(); });

  function go() {  // after the deferred scripts (the offline site's, which answers in the page) have run
    var start = load();
    if (start.current && start.sheets[start.current]) { openSheet(start.current); } else { startScreen(); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", go); } else { go(); }
})();
