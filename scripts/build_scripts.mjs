// The pages' scripts bundled for the browser: each page script in ENTRIES with what it imports, minified,
// into static/dist/ under content-hashed names (esbuild). Code two page scripts share goes into a chunk of
// its own, so a module such as time.js runs once on a page that loads both. ./dip runs this when
// a source changed (dipserver/web/bundle.py decides); the templates' {% module_script %} reads
// static/dist/manifest.json and falls back to the plain ES modules in static/js/ without it.
//
//     node scripts/build_scripts.mjs [OUT]    (OUT: static/dist by default; the tests build elsewhere)
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const STATIC = join(ROOT, "static");
const DIST = process.argv[2] ? resolve(process.argv[2]) : join(STATIC, "dist");
const BUILDING = `${DIST}.building`;
// The scripts a template loads with {% module_script %}: keep in step with templates/.
const ENTRIES = [
    "js/time.js",
    "js/game.js",
    "js/actions.js",
    "js/create.js",
    "js/variant.js",
    "js/studio.js",
    "js/sandbox.js",
    "js/game_versions.js",
    "js/studio_versions.js",
];
// Besides the sources esbuild reads, what changes the output: this file and esbuild's version.
const BUILD_INPUTS = ["scripts/build_scripts.mjs", "package-lock.json"];

// The same digest as dipserver/web/bundle.py's: each file's path (from the root) and its bytes, by path.
function digest(paths) {
  const hash = createHash("sha256");
  for (const path of [...paths].sort()) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(join(ROOT, path)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

rmSync(BUILDING, { recursive: true, force: true });
const result = await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: ENTRIES.map((entry) => join("static", entry)),
  outbase: "static",
  outdir: BUILDING,
  bundle: true,
  splitting: true,
  format: "esm",
  minify: true,
  target: ["es2022"],
  entryNames: "[name]-[hash]",
  chunkNames: "chunk-[hash]",
  banner: { js: "/*! dipserver; includes Panzoom 4.6.2 (MIT licence: static/vendor/panzoom/LICENSE.txt) */" },
  metafile: true,
  logLevel: "warning",
});

// dist/... names, relative to static/ as {% static %} takes them.
const staticName = (path) => `dist/${relative(BUILDING, join(ROOT, path))}`;
const entries = {};
for (const [output, meta] of Object.entries(result.metafile.outputs)) {
  if (!meta.entryPoint) continue;
  const source = relative(STATIC, join(ROOT, meta.entryPoint));
  entries[source] = {
    file: staticName(output),
    // Every chunk it imports, however deep: the page preloads them beside it (no round trip per level).
    imports: [],
  };
  const seen = new Set();
  const walk = (name) => {
    for (const imported of result.metafile.outputs[name].imports) {
      if (imported.kind !== "import-statement" || seen.has(imported.path)) continue;
      seen.add(imported.path);
      entries[source].imports.push(staticName(imported.path));
      walk(imported.path);
    }
  };
  walk(output);
}
const sources = [...Object.keys(result.metafile.inputs), ...BUILD_INPUTS];
const manifest = { digest: digest(sources), sources: sources.sort(), entries };
writeFileSync(join(BUILDING, "manifest.json"), `${JSON.stringify(manifest, null, 1)}\n`);
rmSync(DIST, { recursive: true, force: true });
renameSync(BUILDING, DIST);
console.log(`scripts bundled into ${relative(ROOT, DIST)}/: ${Object.keys(entries).length} page scripts, ${Object.keys(result.metafile.outputs).length} files`);
