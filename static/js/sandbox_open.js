// "Open in a sandbox" on the game page: the sandbox starts at the phase the history slider shows.
const form = document.getElementById("sandbox-form");
form?.addEventListener("submit", () => {
  const slider = document.getElementById("history");
  document.getElementById("sandbox-phase").value = slider ? slider.value : "";
});
