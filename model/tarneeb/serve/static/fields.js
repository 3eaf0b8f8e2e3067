// The question first, then only its fields: the groups of fields a question does not read are folded away
// (the form's data-kind-groups: question kind -> groups, from tarneeb.serve.form.KIND_GROUPS). A group that holds
// a value stays shown, "Show every field" shows them all, and without this script every field is shown.
(function () {
  "use strict";
  var form = document.getElementById("situation-form");
  var kind = document.getElementById("kind");
  if (!form || !kind) { return; }
  var groups = JSON.parse(form.getAttribute("data-kind-groups") || "{}");
  var irr = document.getElementById("irregularity");
  var every = document.getElementById("all-fields");
  var showAll = false;
  function asked() {
    var k = kind.value;
    return k === "irregularity" && irr ? k + ":" + irr.value : k;
  }
  function filled(el) {
    return Array.prototype.some.call(el.querySelectorAll("input, select"), function (i) {
      if (i.name === "_target") { return false; }
      if (i.type === "checkbox" || i.type === "radio") { return i.checked; }
      return i.value !== "";
    });
  }
  function visible(el) { return !el.classList.contains("not-asked"); }
  function update() {
    var want = showAll ? null : groups[asked()] || null;
    form.querySelectorAll("[data-group]").forEach(function (el) {
      var off = want !== null && want.indexOf(el.getAttribute("data-group")) < 0 && !filled(el);
      el.classList.toggle("not-asked", off);
    });
    form.querySelectorAll("fieldset.facts").forEach(function (fs) {
      var shown = Array.prototype.some.call(fs.querySelectorAll("[data-group]"), visible);
      fs.classList.toggle("not-asked", !shown);
    });
    var picker = document.getElementById("picker");
    if (picker) {
      var targets = Array.prototype.filter.call(picker.querySelectorAll("label.target"), visible);
      picker.classList.toggle("not-asked", targets.length === 0);
      var checked = picker.querySelector('input[name="_target"]:checked');
      if (targets.length && (!checked || !visible(checked.closest("label.target")))) {
        var first = targets[0].querySelector("input");
        first.checked = true;
        first.dispatchEvent(new Event("change"));
      }
    }
  }
  kind.addEventListener("change", update);
  if (irr) { irr.addEventListener("change", update); }
  if (every) {
    every.parentNode.hidden = false;
    every.addEventListener("click", function () { showAll = true; update(); every.parentNode.hidden = true; });
  }
  update();
})();
