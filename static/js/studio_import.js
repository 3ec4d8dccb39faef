// An SVG map given to a draft: the server answers at once with an import job (202) and a worker reads
// the shapes; this polls the job until it is done or refused. The upload carries an Idempotency-Key, so a
// request sent again (a flaky connection) is the same job, never a second read.
import { ApiError, call } from "./api.js";

const POLL_MS = 500;
const MAX_WAIT_MS = 120_000;

function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Resolves to the finished job ({status: "done", draft, warnings}); a refusal (at once, or by the worker)
// throws an ApiError whose body carries the error with its problems and provinces.
export async function importSvg(draftUrl, svg, revision, onStatus = () => {}) {
  const key = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
  let { body: job } = await call(`${draftUrl}/svg`, {
    method: "POST",
    json: { svg, revision },
    headers: { "Idempotency-Key": key },
  });
  const started = Date.now();
  while (job.status === "queued" || job.status === "running") {
    onStatus(job.status);
    if (Date.now() - started > MAX_WAIT_MS) throw new Error("The map is still being read; look again in a minute.");
    await wait(POLL_MS);
    ({ body: job } = await call(job.url));
  }
  if (job.status === "failed") throw new ApiError(422, { error: job.error });
  return job;
}
