// The create-a-game form: show the chosen variant's rules summary and timeline beside the form.
const select = document.getElementById("id_variant");
function show() {
  document.querySelectorAll(".variant-preview").forEach((el) => {
    el.hidden = el.dataset.variant !== select.value;
  });
}
if (select) {
  select.addEventListener("change", show);
  show();
}
