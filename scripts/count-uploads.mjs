#!/usr/bin/env node
// Counts the files `wrangler deploy` uploads as static assets from a build folder, the way
// wrangler 4 decides (its buildAssetManifest): every entry of a recursive readdir, tested against
// `/.assetsignore`, `/_redirects`, `/_headers` and the lines of `.assetsignore` with the same
// `ignore` package wrangler bundles (5.3.1, pinned in package.json); folders skipped; a file over
// 25 MiB is an error. Prints JSON: {"uploaded": n, "largest": path, "largestBytes": n, "tooLarge": [..]}.
//
//     node scripts/count-uploads.mjs dist [--list]    (--list: also "files", every path uploaded)
import fs from "node:fs";
import path from "node:path";
import ignore from "ignore";

const MAX_ASSET_SIZE = 25 * 1024 * 1024;
const dir = process.argv[2] ?? "dist";
const patterns = ["/.assetsignore", "/_redirects", "/_headers"];
const ignoreFile = path.join(dir, ".assetsignore");
if (fs.existsSync(ignoreFile)) {
  patterns.push(...fs.readFileSync(ignoreFile, "utf8").split("\n"));
}
const ignorer = ignore().add(patterns);
const list = process.argv.includes("--list");
const files = [];
let uploaded = 0;
let largest = ["", 0];
const tooLarge = [];
for (const relative of fs.readdirSync(dir, { recursive: true })) {
  if (ignorer.test(relative).ignored) continue;
  const stat = fs.statSync(path.join(dir, relative));
  if (stat.isDirectory() || stat.isSymbolicLink()) continue;
  if (stat.size > MAX_ASSET_SIZE) tooLarge.push(relative);
  if (stat.size > largest[1]) largest = [relative, stat.size];
  uploaded += 1;
  if (list) files.push(relative);
}
const report = { uploaded, largest: largest[0], largestBytes: largest[1], tooLarge };
if (list) report.files = files.sort();
console.log(JSON.stringify(report));
