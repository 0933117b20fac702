// Small behaviours of the site's forms, bound here rather than in inline handlers (the Content-Security-Policy,
// docs/security.md, allows no inline script): a select that submits its form when changed (the language), a
// read-only field whose text is selected on a click (an invitation link).
(function () {
  "use strict";
  document.querySelectorAll("select[data-submit-on-change]").forEach((select) => {
    select.addEventListener("change", () => select.form.submit());
  });
  document.querySelectorAll("input[data-select-on-click]").forEach((input) => {
    input.addEventListener("click", () => input.select());
  });
})();
