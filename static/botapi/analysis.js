// The replay page's analysis: a move's "Step n" button moves the replay there, and the note of the step shown
// is marked as current. The replay's own controls (static/js/table.js) listen to the range input.
(function () {
  "use strict";
  const range = document.querySelector("[data-step]");
  const notes = document.querySelectorAll("[data-analysis-step]");
  if (!range || !notes.length) return;
  function mark() {
    notes.forEach(function (note) {
      if (note.dataset.analysisStep === range.value) note.setAttribute("aria-current", "step");
      else note.removeAttribute("aria-current");
    });
  }
  document.querySelectorAll("[data-go-to-step]").forEach(function (button) {
    button.addEventListener("click", function () {
      range.value = button.dataset.goToStep;
      range.dispatchEvent(new Event("input", { bubbles: true }));
      range.dispatchEvent(new Event("change", { bubbles: true }));
      range.focus();
    });
  });
  range.addEventListener("input", mark);
  range.addEventListener("change", mark);
  mark();
})();
