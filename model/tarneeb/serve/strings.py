"""The web pages' own words (navigation, labels, hints) in English and Arabic.

In the Arabic texts, file paths, commands and option examples sit between U+2066 and U+2069 (left-to-right
isolates), so they read left to right inside a right-to-left sentence. Rule texts are not here: clause
wordings, rule pages and citations come from the spec through the engine (:mod:`tarneeb.serve.engine`). The
referee's report comes in the page's language (``tarneeb ruling --lang ar`` on the Arabic pages), and so do each
ruling's sentence and arithmetic (the referee's ``ruling_ar`` and ``math_ar``; its English sentence is kept, folded);
clause ids and error messages stay English and are shown as left-to-right blocks. The pages
number the players 1 to 4 as players count (seat 0 of a situation is player 1), as the referee's reports do in both languages.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "app": "Tarneeb referee",
    "nav": "Main",
    "nav_ruling": "Ruling",
    "nav_records": "Check records",
    "nav_rules": "Rules",
    "other_lang_name": "العربية",
    "footer": "Rulings come from the rules-verified reference model; each cites the clause and the rule document "
              "that decide it.",
    "intro": "Settle a table argument: pick the rulesets, describe the situation and get the ruling, with the "
             "clauses and documents that decide it and the points where the documents can be read two ways.",
    "tile_ruling": "Describe a situation with the card picker, scores and bids; get a cited ruling.",
    "tile_records": "Paste or upload game records and see every divergence at its hand and trick.",
    "tile_rules": "The rules of each ruleset in the order a hand is played, with their sources.",
    "rules_intro": "Each ruleset's rules, generated from the spec files.",
    "error": "Cannot use this input:",
    "error_facts": "Look at: {facts}. The referee's words:",
    "error_detail": "The referee's words:",
    "bad_example": "This link names no example here: \u201c{name}\u201d is not one (the link may be cut short or "
                   "garbled). Pick an example from the list, or describe the situation below.",
    "back_home": "Back to the start page",
    "not_found": "There is no such page.",
    "bad_request": "The request could not be read; send the form again from the page.",
    "server_error": "Something went wrong on our side while answering. The server is still running; try again.",
    "too_large": "The upload is too large: at most {limit} per request.",
    "too_slow": "This took longer than {seconds} seconds to answer and was stopped. Ask about fewer rulesets or "
                "a smaller file.",
    "no_records": "Give a record file: upload one or paste its lines.",
    "too_many_lines": "The record file is too long: at most {n} lines per request.",
    "not_listed": "Not listed here: {n} (the first {shown} are; the summary above counts them all).",
    "not_records": "This is not a record file (the Tarneeb record format: one JSON object per line). "
                   "The first line that could not be read:",
    "the_ruling": "Ruling",
    "decided_by": "Why: the rules that decide it",
    "clause_id": "Rule id:",
    "ambiguity_id": "Ambiguity id:",
    "ambiguous": "Ambiguous: the readings rule differently",
    "ambiguity_same": "Ambiguity (every reading rules the same here)",
    "ambiguity_silent": "The documents are silent here: a club chooses one of these readings",
    "ambiguity_open": "Ambiguity (the readings computed here rule the same; the others are a club's choice)",
    "taken": "taken by",
    "reading_unruled": "a club's choice: no rule document says",
    "ambiguity_below": "The documents can be read more than one way on this: see below.",
    "rulesets": "Rulesets",
    "question": "Question",
    "all_fields": "Show every field",
    "options": "House options (optional)",
    "options_hint": "A ruleset's options as the Rules pages list them, e.g. classic: must_trump=true, target=61.",
    "question_kind": "What is asked",
    "q_seat": "Player asked about",
    "q_card": "Card asked about",
    "q_bid": "Bid asked about",
    "seat": "Player",
    "table": "Table",
    "dealer": "Dealer",
    "scores": "Scores before the hand",
    "scores_hint": "Four personal scores, players 1 to 4; for a team game give the two team scores as players 1 and 2.",
    "bidding": "Bidding",
    "bids": "Individual bids",
    "contract_hint": "Team auction (classic): the contract, or the calls in order from the player after the dealer.",
    "contract_seat": "Contract player",
    "contract_bid": "Contract bid",
    "contract_trump": "Contract trump",
    "no_trump": "No trump",
    "auction": "Auction calls",
    "cards": "Cards",
    "picker_target": "Tapping a card puts it in:",
    "picker_hint": "Tap a card again to take it out. The text fields below can also be typed in (AS, 10H, 2C).",
    "target_q_card": "the card asked about",
    "target_held": "cards held by the player asked about",
    "target_trick_cards": "the trick in progress, in play order",
    "target_revealed": "the dealer's turned card",
    "target_played": "cards of finished tricks",
    "voids": "The player asked about has none of",
    "trick_leader": "Trick led by",
    "tricks": "Tricks taken",
    "hand_result": "The hand was",
    "hand_played": "played",
    "hand_cancelled": "cancelled",
    "get_ruling": "Get the ruling",
    "paste_situation": "Or paste or upload a situation file (TOML or JSON)",
    "situation_text": "The situation, as text",
    "situation_file": "Situation file",
    "examples": "Examples: well-known disputes at the table",
    "suit_S": "spades",
    "suit_H": "hearts",
    "suit_D": "diamonds",
    "suit_C": "clubs",
    "records_intro": "Game records in the Tarneeb record format (one JSON object per line, as the reference model's "
                     "self-play writes them) are replayed through the engine; every divergence is shown at its hand "
                     "and trick.",
    "records_file": "Record file",
    "records_text": "Or paste the lines",
    "check_records": "Check the records",
    "records_summary": "{matches}, {hands} checked, {clean} clean; {divergences}, {errors}, {warnings}.",
    "match": "Match",
    "hand": "hand",
    "trick": "trick",
    "line": "line",
    "field": "Field",
    "claimed": "The record claims",
    "expected": "The rules give",
    "clause": "Clause",
    "problems": "Lines that could not be checked",
    "kind_card-legal": "Is this card legal?",
    "kind_trick-winner": "Who wins this trick?",
    "kind_bid-legal": "Is this bid legal?",
    "kind_redeal": "Is the hand redealt, and who deals?",
    "kind_score": "What does each player score?",
    "kind_winner": "Has a team won?",
    "kind_next-dealer": "Who deals next?",
    "kind_trump": "What is trump?",
    "kind_who-leads": "Who leads?",
    "kind_whose-turn": "Whose turn is it?",
    "kind_irregularity": "An irregularity (a rule broken)",
    "needs_card-legal": "Give: the player asked about and the card, the trick in progress (who led, its cards), the cards that "
                        "player holds or the suits they have none of, and the trump (contract, or dealer and turned card).",
    "needs_trick-winner": "Give: who led the trick and its four cards in play order, and the trump (contract, or "
                          "dealer and turned card).",
    "needs_bid-legal": "Give: the player asked about and the bid, the dealer, the bids or auction calls so far, and the scores "
                       "where the lowest bid depends on them.",
    "needs_redeal": "Give: the dealer and the four bids (or the auction calls).",
    "needs_score": "Give: the bids (or the contract), the tricks each player took, and the scores before the hand. For one "
                   "player's score: the player asked about, and that player's bid, tricks and score only.",
    "needs_winner": "Give: the scores; with the bids and all 13 tricks, the scores before the hand.",
    "needs_next-dealer": "Give: the dealer, and whether the hand was played or cancelled (or the bids).",
    "needs_trump": "Give: the dealer and the turned card (or the contract's trump).",
    "needs_who-leads": "Give: the dealer, and for a later trick the tricks played so far and what makes trump (the "
                       "turned card, or the contract).",
    "needs_whose-turn": "Give: the dealer and the bids so far, or the trick in progress (who led, its cards).",
    "needs_irregularity": "Choose the irregularity below; the facts it needs are listed under it.",
    "seat_name": "Player {n}",
    "english_note": "Below, each ruling with its arithmetic; rulesets that rule the same share one card.",
    "english_text": "The English text",
    "stated_trump": "Trump stated at the table",
    "stated_trump_hint": "What the players say trump is; each ruleset checks it (a contradiction is reported).",
    "irregularity": "Which irregularity",
    "irr_revoke": "Revoke (did not follow or trump)",
    "irr_bid-out-of-turn": "Bid out of turn",
    "irr_lead-out-of-turn": "Lead or play out of turn",
    "irr_exposed-card": "Exposed card",
    "irr_misdeal": "Misdeal",
    "irr_wrong-card-count": "Wrong number of cards",
    "irrneeds_revoke": "Give: the player who revoked (the player asked about), the finished tricks from the one with the revoke "
                       "to the one that proves it (who led, the cards in play order; tag a card with its player, 7D@2), "
                       "and the trump (contract, or dealer and turned card).",
    "irrneeds_bid-out-of-turn": "Give: the dealer, the bids so far, and the player who bid out of turn with its bid.",
    "irrneeds_lead-out-of-turn": "Give: the dealer (the contract in the classic game), the player who led and their card, "
                                 "and the finished tricks for a later trick.",
    "irrneeds_exposed-card": "Give: the player whose card was exposed and the card.",
    "irrneeds_misdeal": "Give: the dealer.",
    "irrneeds_wrong-card-count": "Give: the dealer and the player with the wrong number of cards.",
    "history": "Finished tricks, in order",
    "history_hint": "One row per finished trick: who led it and its four cards in play order. A card may carry its "
                    "player: 7D@2 (player 2).",
    "history_leader": "Trick {n} led by",
    "history_cards": "Cards of trick {n}",
    "target_history_cards": "finished trick {n}",
    "explain": "Explain: show the whole chain of clauses",
    "short_answer": "The answer",
    "answer_text": "Every ruleset's ruling, line by line",
    "chain": "The whole chain",
    "arithmetic": "Arithmetic",
    "cause": "Cause",
    "follows": "Follows from the divergence at line {line}:",
    "independent": "Independent (follows from no earlier divergence)",
    "by_cause": "By cause",
    "by_cause_first": "first at",
    "independent_count": "{n}; the others follow from an earlier one.",
    "col_seat": "Player",
    "col_bid": "Bid",
    "col_tricks": "Tricks",
    "col_claimed": "Record claims",
    "col_rules": "Rules give",
    "diag_title": "What the hands say about the cause",
    "diag_cause": "cause {cause}: it reproduces what the record claims on {hands} where this field "
                  "diverges, and no other recognised bug does.",
    "diag_also": "Also fits some of them: {fits}.",
    "diag_hint": "no cause named, a hint: {cause} reproduces what the record claims on {hands} where this field "
                 "diverges, too few to name a cause (it takes {min} hands).",
    "diag_ambiguous": "no cause named: {causes} each reproduce {hands}; the records cannot tell them apart.",
    "diag_partial": "no cause named: no recognised bug reproduces {hands}. Fits: {fits}. Unexplained: {u}.",
    "diag_unexplained": "unexplained: no recognised bug reproduces what the record claims on {any}.",
    "severity_error": "error",
    "severity_warning": "warning",
    "diag_of": "{k} of {n}",
    "diag_and": " and ",
    "fits_hand": "Fits this hand",
    "unexplained_hand": "no recognised bug reproduces what the record claims (unexplained)",
}

AR: dict[str, str] = {
    "app": "حَكَم الطرنيب",
    "nav": "القائمة الرئيسية",
    "nav_ruling": "الحكم",
    "nav_records": "فحص السجلات",
    "nav_rules": "القواعد",
    "other_lang_name": "English",
    "footer": "الأحكام من النموذج المرجعي اللي انفحصت قواعده؛ كل حكم بيذكر القاعدة اللي بتحسمه ووثيقتها.",
    "intro": "احسم خلاف الطاولة: اختار القوانين، واوصف الموقف، وخود الحكم مع القواعد والوثائق اللي "
             "بتحسمه، والمطارح اللي بتنقرا فيها القوانين على وجهين.",
    "tile_ruling": "اوصف الموقف: الورق والنقاط والطلبات، وخود حكم مع مصدره.",
    "tile_records": "الصق سجلات اللعب أو ارفعها، وشاهد كل اختلاف في يده ولمّته.",
    "tile_rules": "القوانين كلها، قاعدة قاعدة بترتيب اليد، مع مصادرها.",
    "rules_intro": "القوانين كلها، من الملفات نفسها التي يحكم بها الحَكَم.",
    "error": "لا يمكن استخدام هذا الإدخال:",
    "error_facts": "راجِع: {facts}. وهذه عبارة الحَكَم بالإنجليزية:",
    "error_detail": "وهذه عبارة الحَكَم بالإنجليزية:",
    "bad_example": "هذا الرابط لا يسمّي مثالًا من الأمثلة هنا: «{name}» ليس منها (ربما قُطع الرابط أو تلف). "
                   "اختر مثالًا من القائمة، أو صف الموقف أدناه.",
    "back_home": "العودة إلى الصفحة الأولى",
    "not_found": "لا توجد صفحة بهذا العنوان.",
    "bad_request": "تعذّرت قراءة الطلب؛ أرسل النموذج من الصفحة مرة أخرى.",
    "server_error": "حدث خطأ من جهتنا أثناء الإجابة. ما زال الخادم يعمل؛ حاول مرة أخرى.",
    "too_large": "الملف المرفوع كبير جدًا: الحد الأقصى {limit} لكل طلب.",
    "too_slow": "استغرق الجواب أكثر من {seconds} ثانية فأُوقف. اختر قوانين أقل أو أرسل ملفًا أصغر.",
    "no_records": "أعطِ ملف سجلات: ارفعه أو الصق أسطره.",
    "too_many_lines": "ملف السجلات طويل جدًا: الحد الأقصى {n} سطر لكل طلب.",
    "not_listed": "لم يُعرض هنا: {n} (المعروض أول {shown}، والملخّص أعلاه يعدّها كلها).",
    "not_records": "هذا ليس ملف سجلات (صيغة سجلات الطرنيب: كائن JSON في كل سطر). أول سطر تعذّرت قراءته:",
    "the_ruling": "الحكم",
    "decided_by": "ليش؟ القواعد اللي بتحسمه",
    "clause_id": "رمز القاعدة للمطوّرين:",
    "ambiguity_id": "رمز النقطة للمطوّرين:",
    "ambiguous": "القوانين بتنقرا على وجهين هون، وكل قراءة إلها حكم",
    "ambiguity_same": "القوانين بتنقرا على وجهين، بس كل القراءات بتعطي نفس الحكم هون",
    "ambiguity_silent": "القوانين ما بتقول شو بيصير هون: الطاولة بتتّفق على حلّ من هدول",
    "ambiguity_open": "القوانين بتنقرا على وجهين (القراءات المحسوبة بتعطي نفس الحكم هون؛ والباقي بتتّفق عليه الطاولة)",
    "taken": "ماشية عليها",
    "reading_unruled": "حلّ بتتّفق عليه الطاولة، ما بتذكره ولا وثيقة",
    "ambiguity_below": "وين القوانين مش واضحة (تحت):",
    "rulesets": "القوانين",
    "question": "السؤال",
    "all_fields": "أظهر كل الحقول",
    "options": "خيارات الطاولة (اختياري)",
    "options_hint": "خيارات القوانين كما تسردها صفحات القواعد، مثل \u2066classic: must_trump=true, target=61\u2069.",
    "question_kind": "نوع السؤال",
    "q_seat": "اللاعب المقصود",
    "q_card": "الورقة المقصودة",
    "q_bid": "الطلب المقصود",
    "seat": "اللاعب",
    "table": "الطاولة",
    "dealer": "الموزّع",
    "scores": "النقاط قبل اليد",
    "scores_hint": ("أربع نقاط شخصية، لكل لاعب نقاطه؛ في لعبة الفرق ضع نقاط الفريق الأول في الخانة الأولى "
                    "ونقاط الفريق الثاني في الخانة الثانية."),
    "bidding": "الطلب",
    "bids": "الطلبات الفردية",
    "contract_hint": "مزايدة الفرق (الكلاسيكي): الطلب الفائز، أو طلبات المزايدة بالترتيب بدءًا من اللاعب الذي بعد الموزّع.",
    "contract_seat": "صاحب الطلب الفائز",
    "contract_bid": "الطلب الفائز",
    "contract_trump": "طرنيب الطلب الفائز",
    "no_trump": "«بلا طرنيب»",
    "auction": "طلبات المزايدة (رقم، أو ⁦pass⁩ لـ«باص»)",
    "cards": "الأوراق",
    "picker_target": "النقر على ورقة يضعها في:",
    "picker_hint": "انقر الورقة مرة أخرى لإخراجها. ويمكن أيضًا الكتابة في الحقول أدناه (AS، 10H، 2C).",
    "target_q_card": "الورقة المقصودة",
    "target_held": "أوراق اللاعب المقصود",
    "target_trick_cards": "اللمّة الجارية، بترتيب اللعب",
    "target_revealed": "الورقة التي كشفها الموزّع",
    "target_played": "أوراق اللمّات المنتهية",
    "voids": "ليس مع اللاعب المقصود أي ورقة من",
    "trick_leader": "بدأ اللمّة",
    "tricks": "اللمّات المأخوذة",
    "hand_result": "كانت اليد",
    "hand_played": "لُعبت",
    "hand_cancelled": "أُلغيت",
    "get_ruling": "احصل على الحكم",
    "paste_situation": "أو الصق ملف موقف أو ارفعه (TOML أو JSON)",
    "situation_text": "نص الموقف",
    "situation_file": "ملف الموقف",
    "examples": "أمثلة: خلافات مشهورة على الطاولة",
    "suit_S": "البستوني",
    "suit_H": "الكبّة",
    "suit_D": "الديناري",
    "suit_C": "السباتي",
    "records_intro": "يعيد الحَكَم لعب السجلات المكتوبة بصيغة سجلات الطرنيب (كائن JSON في كل سطر، كما يكتبها النموذج "
                     "المرجعي حين يلعب مع نفسه) بحسب القوانين، ويعرض كل اختلاف في يده ولمّته.",
    "records_file": "ملف السجلات",
    "records_text": "أو الصق الأسطر",
    "check_records": "افحص السجلات",
    "records_summary": "فُحصت {matches} و{hands}، منها {clean} سليمة؛ {divergences}، {errors}، {warnings}.",
    "match": "المباراة",
    "hand": "اليد",
    "trick": "اللمّة",
    "line": "السطر",
    "field": "الحقل",
    "claimed": "يقول السجل",
    "expected": "تقول القوانين",
    "clause": "القاعدة",
    "problems": "أسطر تعذّر فحصها",
    "kind_card-legal": "هل هذه الورقة مسموحة؟",
    "kind_trick-winner": "من يأخذ هذه اللمّة؟",
    "kind_bid-legal": "هل هذا الطلب مسموح؟",
    "kind_redeal": "هل يُعاد التوزيع، ومن يوزّع؟",
    "kind_score": "كم يسجّل كل لاعب؟",
    "kind_winner": "هل فاز فريق؟",
    "kind_next-dealer": "من يوزّع اليد التالية؟",
    "kind_trump": "ما الطرنيب؟",
    "kind_who-leads": "من يبدأ اللمّة؟",
    "kind_whose-turn": "على من الدور؟",
    "kind_irregularity": "مخالفة في اللعب أو الطلب أو التوزيع",
    "needs_card-legal": "أعطِ: اللاعب المقصود والورقة، واللمّة الجارية (من بدأها وأوراقها)، وأوراق ذلك اللاعب أو "
                        "النقوش التي ليست معه، والطرنيب (الطلب الفائز، أو الموزّع والورقة المكشوفة).",
    "needs_trick-winner": "أعطِ: من بدأ اللمّة وأوراقها الأربع بترتيب اللعب، والطرنيب (الطلب الفائز، أو الموزّع والورقة المكشوفة).",
    "needs_bid-legal": "أعطِ: اللاعب المقصود والطلب، والموزّع، والطلبات حتى الآن (فردية أو في المزايدة)، والنقاط حين "
                       "يتوقف عليها أقل طلب.",
    "needs_redeal": "أعطِ: الموزّع والطلبات الأربعة (أو طلبات المزايدة).",
    "needs_score": "أعطِ: الطلبات (أو الطلب الفائز)، واللمّات التي أخذها كل لاعب، والنقاط قبل اليد. ولنقاط لاعب واحد: اللاعب "
                   "المقصود، وطلبه ولمّاته ونقاطه فقط.",
    "needs_winner": "أعطِ: النقاط؛ ومع الطلبات واللمّات الثلاث عشرة كلها، النقاط قبل اليد.",
    "needs_next-dealer": "أعطِ: الموزّع، وهل لُعبت اليد أم أُلغيت (أو الطلبات).",
    "needs_trump": "أعطِ: الموزّع والورقة المكشوفة (أو طرنيب الطلب الفائز).",
    "needs_who-leads": "أعطِ: الموزّع، وللّمّات اللاحقة اللمّات التي لُعبت وما يحدّد الطرنيب (الورقة المكشوفة أو "
                       "الطلب الفائز).",
    "needs_whose-turn": "أعطِ: الموزّع والطلبات حتى الآن، أو اللمّة الجارية (من بدأها وأوراقها).",
    "needs_irregularity": "اختر المخالفة أدناه؛ تُذكر تحتها الوقائع التي تحتاجها.",
    "seat_name": "اللاعب {n}",
    "english_note": "هون كل حكم مع حسابه؛ والقوانين اللي بتحكم نفس الحكم ببطاقة وحدة.",
    "english_text": "النص الإنجليزي",
    "stated_trump": "الطرنيب المعلن على الطاولة",
    "stated_trump_hint": "ما يقول اللاعبون إنه الطرنيب؛ يتحقق منه الحَكَم في كل القوانين المختارة (ويُذكر التناقض إن وُجد).",
    "irregularity": "أي مخالفة",
    "irr_revoke": "لم يلعب من النقش المطلوب أو لم يقطع",
    "irr_bid-out-of-turn": "طلب في غير الدور",
    "irr_lead-out-of-turn": "البدء باللمّة أو اللعب في غير الدور",
    "irr_exposed-card": "ورقة مكشوفة",
    "irr_misdeal": "توزيع خاطئ",
    "irr_wrong-card-count": "عدد أوراق خاطئ",
    "irrneeds_revoke": "أعطِ: اللاعب المخالف (اللاعب المقصود)، واللمّات المنتهية من لمّة المخالفة إلى اللمّة التي "
                       "تثبتها (من بدأها وأوراقها بترتيب اللعب؛ ويمكن وسم الورقة بلاعبها، ⁦7D@3⁩)، والطرنيب "
                       "(الطلب الفائز، أو الموزّع والورقة المكشوفة).",
    "irrneeds_bid-out-of-turn": "أعطِ: الموزّع، والطلبات حتى الآن، واللاعب الذي طلب في غير دوره وطلبه.",
    "irrneeds_lead-out-of-turn": "أعطِ: الموزّع (والطلب الفائز في اللعبة الكلاسيكية)، واللاعب الذي بدأ اللمّة في غير "
                                 "دوره وورقته، واللمّات المنتهية إن كانت لمّة لاحقة.",
    "irrneeds_exposed-card": "أعطِ: اللاعب الذي انكشفت ورقته والورقة.",
    "irrneeds_misdeal": "أعطِ: الموزّع.",
    "irrneeds_wrong-card-count": "أعطِ: الموزّع واللاعب الذي معه عدد أوراق خاطئ.",
    "history": "اللمّات المنتهية، بالترتيب",
    "history_hint": "صف لكل لمّة منتهية: من بدأها وأوراقها الأربع بترتيب اللعب. ويمكن وسم الورقة بلاعبها: "
                    "⁦7D@3⁩ (اللاعبون من 1 إلى 4).",
    "history_leader": "بدأ اللمّة {n}",
    "history_cards": "أوراق اللمّة {n}",
    "target_history_cards": "اللمّة المنتهية {n}",
    "explain": "اشرح: اعرض كل القواعد اللي بتحسم",
    "short_answer": "الجواب",
    "answer_text": "الحكم بكل القوانين، سطر سطر",
    "chain": "كل القواعد اللي بتحسم",
    "arithmetic": "الحساب",
    "cause": "السبب",
    "follows": "ينتج عن الاختلاف في السطر {line}:",
    "independent": "مستقل (لا ينتج عن اختلاف سابق)",
    "by_cause": "حسب السبب",
    "by_cause_first": "أول مرة في",
    "independent_count": "{n}؛ والباقي ينتج عن اختلاف سابق.",
    "col_seat": "اللاعب",
    "col_bid": "الطلب",
    "col_tricks": "اللمّات",
    "col_claimed": "يقول السجل",
    "col_rules": "تقول القوانين",
    "diag_title": "ما تقوله الأيدي عن السبب",
    "diag_cause": "السبب {cause}: يعيد ما يقوله السجل في {hands} حيث اختلف هذا الحقل، ولا يفعل ذلك أيّ خطأ معروف "
                  "آخر.",
    "diag_also": "ويطابق بعضها أيضًا: {fits}.",
    "diag_hint": "لا سبب مسمّى، بل إشارة: {cause} يعيد ما يقوله السجل في {hands} حيث اختلف هذا الحقل، وهذا أقل من أن "
                 "يُسمّى سببًا (يلزم {min} أيدٍ على الأقل).",
    "diag_ambiguous": "لا سبب مسمّى: كلٌّ من {causes} يعيد {hands}؛ لا تكفي السجلات للتمييز بينها.",
    "diag_partial": "لا سبب مسمّى: لا خطأ معروف يعيد {hands}. يطابق: {fits}. بلا تفسير: {u}.",
    "diag_unexplained": "بلا تفسير: لا خطأ معروف يعيد ما يقوله السجل في {any}.",
    "severity_error": "خطأ",
    "severity_warning": "تحذير",
    "diag_of": "{k} من {n}",
    "diag_and": " و",
    "fits_hand": "يطابق هذه اليد",
    "unexplained_hand": "لا خطأ معروف يعيد ما يقوله السجل (بلا تفسير)",
}

STRINGS: dict[str, dict[str, str]] = {"en": EN, "ar": AR}

# counted nouns: English (one, many); Arabic (one, two, three to ten, eleven and more), as a number is said
NOUNS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"match": ("match", "matches"), "hand": ("hand record", "hand records"),
           "divergence": ("divergence", "divergences"), "unreadable": ("unreadable record", "unreadable records"),
           "line": ("line", "lines"),
           "warning": ("warning", "warnings"), "independent": ("independent divergence", "independent divergences")},
    "ar": {"match": ("مباراة واحدة", "مباراتان", "مباريات", "مباراة"),
           "hand": ("سجل يد واحد", "سجلا يد", "سجلات يد", "سجل يد"),
           "divergence": ("اختلاف واحد", "اختلافان", "اختلافات", "اختلافًا"),
           "unreadable": ("سجل واحد غير مقروء", "سجلان غير مقروءين", "سجلات غير مقروءة", "سجلًا غير مقروء"),
           "line": ("سطر واحد", "سطران", "أسطر", "سطرًا"),
           "warning": ("تحذير واحد", "تحذيران", "تحذيرات", "تحذيرًا"),
           "independent": ("اختلاف مستقل واحد", "اختلافان مستقلان", "اختلافات مستقلة", "اختلافًا مستقلًا")},
}


def counted(lang: str, n: int, noun: str) -> str:
    """``n`` with ``noun`` in its right form: "1 match", "3 matches"; «مباراة واحدة»، «مباراتان»، «3 مباريات»، «11 مباراة»."""
    forms = NOUNS[lang][noun]
    if lang == "en":
        return f"{n} {forms[0] if n == 1 else forms[1]}"
    if n == 1:
        return forms[0]
    if n == 2:
        return forms[1]
    if n == 0:
        return f"0 {forms[2]}"
    return f"{n} {forms[2] if 3 <= n % 100 <= 10 else forms[3]}"


def all_hands(lang: str, n: int) -> str:
    """The hand records a diagnosis weighs, all of them: "the one hand record", "both hand records", "all 3 hand
    records"; «سجل اليد الوحيد»، «سجلَي اليد كليهما»، «سجلات اليد الـ3 كلها»."""
    if lang == "en":
        return "the one hand record" if n == 1 else "both hand records" if n == 2 else f"all {n} hand records"
    return "سجل اليد الوحيد" if n == 1 else "سجلَي اليد كليهما" if n == 2 else f"سجلات اليد الـ{n} كلها"


def any_hand(lang: str, n: int) -> str:
    """Any of the hand records where a field diverges: "the one hand record where this field diverges", "any of
    the 3 hand records where this field diverges" (and in Arabic)."""
    if lang == "en":
        return ("the one hand record where this field diverges" if n == 1 else
                f"any of the {n} hand records where this field diverges")
    return ("سجل اليد الوحيد الذي اختلف فيه هذا الحقل" if n == 1 else
            f"أيٍّ من سجلات اليد الـ{n} التي اختلف فيها هذا الحقل")


def kind_label(lang: str, kind: str) -> str:
    """The question of a kind in ``lang`` (the kind id itself when a language lacks it)."""
    return STRINGS[lang].get(f"kind_{kind}", kind)
