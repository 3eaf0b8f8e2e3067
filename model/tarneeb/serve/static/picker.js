// The card picker: tapping a card adds it to (or takes it out of) the chosen text field. The fields stay the
// source of truth and can be typed in; without this script the form works the same, by typing.
(function () {
  "use strict";
  var kind = document.getElementById("kind");
  var hint = document.getElementById("kind-hint");
  var irrBox = document.getElementById("irregularity-box");
  var irr = document.getElementById("irregularity");
  var irrHint = document.getElementById("irregularity-hint");
  function showIrregularity() {
    if (irrBox && kind) { irrBox.hidden = kind.value !== "irregularity"; }
  }
  if (kind && hint) {
    kind.addEventListener("change", function () {
      hint.textContent = kind.options[kind.selectedIndex].getAttribute("data-needs") || "";
      showIrregularity();
    });
  }
  if (irr && irrHint) {
    irr.addEventListener("change", function () {
      irrHint.textContent = irr.options[irr.selectedIndex].getAttribute("data-needs") || "";
    });
  }
  showIrregularity();
  // Each player menu gets a row of buttons, players 1 to 4: one tap where the menu takes two (open, choose). The
  // menu stays the field sent (and works without this script). A menu that names whose cards come next (the player
  // asked about, a trick's leader) also turns the card picker to those cards (data-cards: the field's id).
  function chooseTarget(id) {
    var radio = document.querySelector('#picker input[name="_target"][value="' + id + '"]');
    if (radio && !radio.checked && !radio.closest(".not-asked")) {
      radio.checked = true;
      radio.dispatchEvent(new Event("change"));
    }
  }
  document.querySelectorAll("select.seat").forEach(function (sel) {
    var row = document.createElement("div");
    row.className = "chips";
    row.setAttribute("role", "group");
    var label = sel.id && document.querySelector('label[for="' + sel.id + '"]');
    if (label) { row.setAttribute("aria-label", label.textContent); }
    var chips = [];
    Array.prototype.forEach.call(sel.options, function (opt) {
      if (opt.value === "") { return; }
      var b = document.createElement("button");
      b.type = "button";
      b.className = "chip";
      b.setAttribute("data-seat", opt.value);
      b.setAttribute("aria-label", opt.textContent);
      b.textContent = String(Number(opt.value) + 1);  // players count 1 to 4, as the menu's names do
      b.addEventListener("click", function () {
        sel.value = sel.value === opt.value ? "" : opt.value;  // tapping the chosen player again clears it
        sel.dispatchEvent(new Event("change", { bubbles: true }));
        if (sel.value !== "" && sel.getAttribute("data-cards")) { chooseTarget(sel.getAttribute("data-cards")); }
      });
      chips.push(b);
      row.appendChild(b);
    });
    function mark() {
      chips.forEach(function (b) { b.setAttribute("aria-pressed", b.getAttribute("data-seat") === sel.value ? "true" : "false"); });
    }
    sel.addEventListener("change", mark);
    mark();
    sel.parentNode.insertBefore(row, sel.nextSibling);
  });
  var picker = document.getElementById("picker");
  if (!picker) { return; }
  picker.hidden = false;
  var buttons = picker.querySelectorAll("button.card");
  var radios = picker.querySelectorAll('input[name="_target"]');
  var fields = Array.prototype.map.call(radios, function (r) { return r.value; });

  function norm(code) {
    code = code.toUpperCase().split("@")[0];  // a seat tag (7D@2) names the same card
    return code.indexOf("10") === 0 ? "T" + code.slice(2) : code;
  }
  function cardsOf(id) {
    var el = document.getElementById(id);
    return el ? el.value.split(/[\s,;]+/).filter(Boolean).map(norm) : [];
  }
  function target() {
    for (var i = 0; i < radios.length; i++) { if (radios[i].checked) { return radios[i].value; } }
    return fields[0];
  }
  function refresh() {
    var here = cardsOf(target());
    var elsewhere = {};
    fields.forEach(function (f) {
      if (f !== target()) { cardsOf(f).forEach(function (c) { elsewhere[c] = f; }); }
    });
    buttons.forEach(function (b) {
      var c = b.getAttribute("data-card");
      b.setAttribute("aria-pressed", here.indexOf(c) >= 0 ? "true" : "false");
      b.classList.toggle("used", !!elsewhere[c] && here.indexOf(c) < 0);
    });
  }
  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      var id = target();
      var el = document.getElementById(id);
      var c = b.getAttribute("data-card");
      var cards = el.value.split(/[\s,;]+/).filter(Boolean);  // as typed: seat tags (7D@2) are kept
      var at = cards.map(norm).indexOf(c);
      if (at >= 0) { cards.splice(at, 1); }
      else if (el.hasAttribute("data-single")) { cards = [c]; }
      else { cards.push(c); }
      el.value = cards.join(" ");
      refresh();
    });
  });
  radios.forEach(function (r) { r.addEventListener("change", refresh); });
  fields.forEach(function (f) {
    var el = document.getElementById(f);
    if (el) { el.addEventListener("input", refresh); }
  });
  refresh();
})();
