// The replay page's analysis: the note of the step shown appears under the replay controls and is marked in the
// move-by-move list; a move's "Step n" button moves the replay there. The replay's own code (static/js/table.js)
// follows the range input's "input" event; its step label tells when a step was loaded.
(function () {
  "use strict";
  const range = document.querySelector("[data-step]");
  const notes = document.querySelectorAll("[data-analysis-step]");
  const current = document.querySelector("[data-analysis-current]");
  const controls = document.querySelector(".replay-controls");
  if (!range || !notes.length) return;
  if (current && controls) controls.after(current);
  function mark() {
    let text = "";
    notes.forEach(function (note) {
      if (note.dataset.analysisStep === range.value) {
        note.setAttribute("aria-current", "step");
        text += (text ? " " : "") + note.dataset.analysisText;
      } else {
        note.removeAttribute("aria-current");
      }
    });
    if (current) {
      current.textContent = text;
      current.hidden = !text;
    }
  }
  document.querySelectorAll("[data-go-to-step]").forEach(function (button) {
    button.addEventListener("click", function () {
      range.value = button.dataset.goToStep;
      range.dispatchEvent(new Event("input", { bubbles: true }));
      range.focus();
    });
  });
  range.addEventListener("input", mark);
  // The step buttons and arrow keys move the slider without an event; the step label changes after each load.
  const label = document.querySelector("[data-step-label]");
  if (label) new MutationObserver(mark).observe(label, { childList: true, characterData: true, subtree: true });
  mark();
})();
