// The variant page: step through the seasons and show the map after each one's changes.
const viewer = document.querySelector(".season-viewer");
const slider = document.getElementById("season-step");
const label = document.getElementById("season-label");
const img = document.getElementById("season-map");
const items = [...document.querySelectorAll(".timeline > li[data-step]")];

// Power colours come as data-power-colour (a style attribute is refused by the policy).
for (const chip of document.querySelectorAll("[data-power-colour]")) {
  chip.style.setProperty("--power", chip.dataset.powerColour);
}

function show(step) {
  slider.value = step;
  const item = items[step];
  label.textContent = item.querySelector("button").textContent;
  img.src = `${viewer.dataset.base}${step}.svg`;
  img.alt = `The map ${label.textContent}`;
  items.forEach((li) => li.classList.toggle("current", li === item));
}

if (viewer) {
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.querySelectorAll(".timeline button[data-step]").forEach((button) => {
    button.addEventListener("click", () => {
      show(Number(button.dataset.step));
      viewer.scrollIntoView({ behavior: "smooth", block: "start" });
    });
  });
}
