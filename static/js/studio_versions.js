// The studio page's published versions: "run its tests" plays a version's own tests again on this
// server's engine (GET /api/v1/studio/versions/<id>/tests, as any client would) and shows each test
// beside the version, passed or failed and what differed; a refused or failed run says why there. The
// link stays a plain link to the API's JSON without scripts.
import { call } from "./api.js";
import { testItem } from "./test_items.js";
import { runRefused, testsSummary } from "./test_results.js";

function item(result) {
  const li = testItem(result.name, result);
  li.dataset.test = result.name;
  return li;
}

// The line above a version's results saying what the run is doing, or why it gave none.
function stateLine(box, text, className) {
  const line = box.querySelector(".run-state") ?? Object.assign(document.createElement("p"), { className: "run-state" });
  line.textContent = text;
  line.classList.toggle("error", className === "error");
  box.prepend(line);
}

// Results of an earlier run stay shown while a new one runs, and when it is refused (marked as earlier).
async function run(link, box) {
  if (link.getAttribute("aria-busy") === "true") return; // one run at a time per version
  link.setAttribute("aria-busy", "true");
  box.hidden = false;
  box.classList.add("running");
  stateLine(box, "Running the tests…");
  try {
    const { body } = await call(link.getAttribute("href"));
    const summary = Object.assign(document.createElement("p"), { className: "tests-summary" });
    summary.textContent = body.tests.length ? `${testsSummary(body.tests)} on this server's engine.` : "This version has no tests.";
    const list = Object.assign(document.createElement("ul"), { className: "tests-list" });
    list.append(...body.tests.map(item));
    box.className = `version-test-results ${body.ok ? "ok" : "failing"}`;
    box.replaceChildren(summary, list);
  } catch (error) {
    box.className = "version-test-results refused";
    const earlier = box.querySelector(".tests-summary");
    if (earlier && !earlier.textContent.startsWith("Earlier run: ")) earlier.textContent = `Earlier run: ${earlier.textContent}`;
    stateLine(box, runRefused(error), "error");
  } finally {
    link.removeAttribute("aria-busy");
  }
}

for (const link of document.querySelectorAll("#versions a.version-tests")) {
  const box = link.closest("li").querySelector(".version-test-results");
  link.addEventListener("click", (event) => {
    event.preventDefault();
    run(link, box);
  });
}
document.body.dataset.ready = "true";
