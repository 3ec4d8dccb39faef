// The create-a-game form: show the chosen variant's rules summary and timeline beside the form, and only
// the options that matter for it. Each option row lists its variants (data-variants) and its default in
// each (data-defaults); the rows of other variants are hidden and disabled, so they are never sent.
const select = document.getElementById("id_variant");

function showPreview() {
  document.querySelectorAll(".variant-preview").forEach((el) => {
    el.hidden = el.dataset.variant !== select.value;
  });
}

function showOptions(resetDefaults) {
  let any = false;
  document.querySelectorAll(".variant-option").forEach((row) => {
    const mine = row.dataset.variants.split(" ").includes(select.value);
    row.hidden = !mine;
    any = any || mine;
    row.querySelectorAll("input, select").forEach((input) => {
      input.disabled = !mine;
      if (!mine || !resetDefaults || input.type === "hidden") return;
      const value = JSON.parse(row.dataset.defaults)[select.value];
      if (input.type === "checkbox") input.checked = Boolean(value);
      else input.value = value === null || value === undefined ? "" : String(value);
    });
  });
  const box = document.querySelector(".variant-options");
  if (box) box.hidden = !any;
}

if (select) {
  select.addEventListener("change", () => {
    showPreview();
    showOptions(true);
  });
  showPreview();
  showOptions(false); // keep what the page came back with (a form with errors keeps its values)
}
