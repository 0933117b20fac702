// The table-creation form (templates/lobby/_table_form.html): choosing a preset mirrors its values into the folded
// "Custom" fields, and changing one of those fields switches the rules to "Custom" and unfolds them. Without
// JavaScript the server reads the same choice from the fields (lobby/forms.py).
(function () {
  "use strict";
  const form = document.querySelector("form.table-form[data-presets]");
  if (!form) return;
  const presets = JSON.parse(form.dataset.presets || "{}");
  const custom = form.querySelector("input[name=preset][value=custom]");
  const details = form.querySelector("details.custom-options");
  let mirroring = false;

  function setField(name, value) {
    const fields = form.querySelectorAll(`[name="${name}"]`);
    fields.forEach((field) => {
      if (field.type === "checkbox" && fields.length > 1) field.checked = Array.isArray(value) && value.includes(field.value);
      else if (field.type === "checkbox") field.checked = Boolean(value);
      else field.value = value === null || value === undefined ? "" : String(value);
    });
  }

  form.addEventListener("change", (event) => {
    const target = event.target;
    if (target.name === "preset") {
      if (target.value === "custom") { details.open = true; return; }
      mirroring = true;
      for (const [name, value] of Object.entries(presets[target.value] || {})) setField(name, value);
      mirroring = false;
    } else if (!mirroring && custom && details.contains(target)) {
      custom.checked = true;
    }
  });
})();
