// A variant's tests as they ran, in words: shared by the studio's editor (a draft's tests after each
// save) and the studio page (a published version's tests run again on this server). No DOM here, so
// Node runs it in the tests (tests/web/test_studio_results_js.py).

// "2 of 3 tests pass; 1 fails" for results [{name, passed, failures}].
export function testsSummary(results) {
  const failed = results.filter((r) => !r.passed).length;
  return `${results.length - failed} of ${results.length} test(s) pass${failed ? `; ${failed} fail` : ""}`;
}

// Why a run of the tests gave no results, for an ApiError (status, message, retryAfter) or a failed fetch.
export function runRefused(error) {
  if (error?.status === 429) {
    const wait = error.retryAfter ? ` Try again in ${error.retryAfter} s.` : " Try again in a minute.";
    return `Not run: too many test runs for now (each one plays its cases on the server).${wait}`;
  }
  if (error?.status === 404) return `Not run: ${error.message}`;
  if (error?.status >= 500) return `The tests could not be run: the server failed (${error.message}). Try again later.`;
  if (error?.status) return `The tests could not be run: ${error.message}`;
  return "The tests could not be run: the server could not be reached. Check the connection and try again.";
}
