// Keyboard shortcuts of the review page: a accept, r reject, e edit, s skip, n next, u undo,
// f accept the suggested repair.
// Everything also works without JavaScript (plain forms and links).
(function () {
  function click(id) { var el = document.getElementById(id); if (el) { el.click(); return true; } return false; }
  var old = document.getElementById("edit-old"), field = document.getElementById("edit-field");
  var text = document.getElementById("edit-new");
  function syncEdit(fill) {
    if (!old || !field) return;
    var opt = old.options[old.selectedIndex];
    field.value = opt ? opt.getAttribute("data-field") : "nile";
    if (fill && text && opt) text.value = opt.value;
  }
  if (old) { old.addEventListener("change", function () { syncEdit(true); }); syncEdit(text && !text.value); }
  document.addEventListener("keydown", function (ev) {
    var tag = (ev.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var handled = false;
    if (ev.key === "a") handled = click("accept");
    else if (ev.key === "r") {
      var target = document.getElementById("target");
      if (target && !target.value) { target.focus(); handled = true; } else handled = click("reject");
    }
    else if (ev.key === "s") handled = click("skip");
    else if (ev.key === "n") handled = click("next");
    else if (ev.key === "u") handled = click("undo");
    else if (ev.key === "f") handled = click("accept-suggestion");
    else if (ev.key === "e" && text) { text.focus(); handled = true; }
    if (handled) ev.preventDefault();
  });
})();
