// One of a variant's tests as an item of a list of results, built the same way by the studio's editor (a
// draft's tests after each save) and the studio page (a published version's tests run again): its name, a
// pass/fail mark, and what differed listed under it. The words are test_results.js's.

// <li class="passed|failed">name — <span class="test-mark">✓ passes</span> …between <ul class="test-failures">
// for a result {passed, failures} (none: not run). `between`: what goes after the mark (buttons, say).
export function testItem(name, result, between = []) {
  const item = document.createElement("li");
  if (result) item.className = result.passed ? "passed" : "failed";
  const mark = Object.assign(document.createElement("span"), { className: "test-mark", textContent: result ? (result.passed ? "✓ passes" : "✗ fails") : "not run" });
  item.append(`${name} — `, mark, ...between);
  if (result?.failures?.length) {
    const why = Object.assign(document.createElement("ul"), { className: "test-failures" });
    why.append(...result.failures.map((failure) => Object.assign(document.createElement("li"), { textContent: failure })));
    item.append(why);
  }
  return item;
}
