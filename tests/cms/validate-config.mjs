// Validates CMS configurations (JSON, one file per argument) with the CMS's own schema:
//
//     node validate-config.mjs [--cms decap|sveltia] config.json...
//
// Decap CMS (the default): `validateConfig` of decap-cms-core's src/constants/configSchema.js, the
// function the CMS runs on config.yml when it starts, with Ajv and the keywords it uses. The
// module's three imports from the rest of the CMS (which would pull in React and the whole app) are
// given the values the CMS has: the i18n enums and front-matter formats read from the same
// package's sources, and the schema of every widget of the widget packages in packs.txt
// (`getWidgets`). Sveltia CMS: the JSON Schema its npm package ships (schema/sveltia-cms.json).
// Prints each file's errors and exits 1 if any has one. scripts/cms-tools installs what it reads.
import { readFileSync, readdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const unpacked = join(here, 'node_modules', '.unpacked');
const core = join(unpacked, 'decap-cms-core', 'src');

/** The value of `export const name = <literal>;` or of `export enum name {...}` in a source file. */
function exported(file, name) {
  const text = readFileSync(join(core, file), 'utf8');
  const constant = text.match(new RegExp(`export const ${name} = ([\\s\\S]*?);\\n`));
  if (constant) return Function(`return (${constant[1]});`)();
  const enumeration = text.match(new RegExp(`export enum ${name} \\{([\\s\\S]*?)\\}`));
  if (!enumeration) throw new Error(`${file} has no ${name}`);
  return Object.fromEntries(
    enumeration[1].split(',').map((m) => m.trim()).filter(Boolean).map((m) => m.split('=').map((p) => p.trim().replace(/'/g, ''))),
  );
}

/** Every widget of the unpacked widget packages with the schema its package declares. */
function widgets() {
  return readdirSync(unpacked)
    .filter((name) => name.startsWith('decap-cms-widget-'))
    .map((name) => {
      let schema = {};
      try {
        const text = readFileSync(join(unpacked, name, 'src', 'schema.js'), 'utf8');
        schema = Function(`return (${text.replace('export default', '').trim().replace(/;$/, '')});`)();
      } catch (e) {
        if (e.code !== 'ENOENT') throw e;
      }
      return { name: name.replace('decap-cms-widget-', ''), schema };
    });
}

// `extensionFormatters` maps extensions to formatter objects: only its keys matter to the schema.
const formatters = readFileSync(join(core, 'formats', 'formats.ts'), 'utf8').match(/export const extensionFormatters = \{([\s\S]*?)\}/);
const extensions = formatters[1].split(',').map((line) => line.split(':')[0].trim().replace(/'/g, '')).filter(Boolean);

const stand_ins = `
import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(pathToFileURL(join(here, 'package.json')).href)});
const AJV = require('ajv').default;
const { select, uniqueItemProperties, instanceof: instanceOf, prohibited } = require('ajv-keywords/dist/keywords');
const ajvErrors = require('ajv-errors').default || require('ajv-errors');
const frontmatterFormats = ${JSON.stringify(exported('formats/formats.ts', 'frontmatterFormats'))};
const extensionFormatters = ${JSON.stringify(Object.fromEntries(extensions.map((e) => [e, {}])))};
const I18N_STRUCTURE = ${JSON.stringify(exported('lib/i18n.ts', 'I18N_STRUCTURE'))};
const I18N_FIELD = ${JSON.stringify(exported('lib/i18n.ts', 'I18N_FIELD'))};
const WIDGETS = ${JSON.stringify(widgets())};
const getWidgets = () => WIDGETS;
`;

/** Decap CMS's `validateConfig`, which throws an error listing every problem. */
async function decapCheck() {
  const source = readFileSync(join(core, 'constants', 'configSchema.js'), 'utf8');
  const imports = /^import[\s\S]*?from '\.\.\/lib\/i18n';\n/;
  if (!imports.test(source)) throw new Error('configSchema.js no longer starts with the imports this script replaces');
  const module_file = join(mkdtempSync(join(tmpdir(), 'decap-schema-')), 'configSchema.mjs');
  writeFileSync(module_file, source.replace(imports, stand_ins));
  return (await import(pathToFileURL(module_file).href)).validateConfig;
}

/** A check of Sveltia CMS's JSON Schema that throws like Decap's. */
function sveltiaCheck() {
  const require = createRequire(import.meta.url);
  const Ajv = require('ajv').default;
  const schema = JSON.parse(readFileSync(join(unpacked, '@sveltia', 'cms', 'schema', 'sveltia-cms.json'), 'utf8'));
  const validate = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
  return (config) => {
    if (!validate(config)) {
      throw new Error(validate.errors.map((e) => `'${e.instancePath || '/'}' ${e.message} ${JSON.stringify(e.params)}`).join('\n'));
    }
  };
}

const args = process.argv.slice(2);
const app = args[0] === '--cms' ? args.splice(0, 2)[1] : 'decap';
const validateConfig = app === 'sveltia' ? sveltiaCheck() : await decapCheck();

const quiet = console.error;
let failed = 0;
for (const file of args) {
  const config = JSON.parse(readFileSync(file, 'utf8'));
  console.error = () => {};
  try {
    validateConfig(config);
    console.log(`${file}: valid (${app})`);
  } catch (e) {
    failed += 1;
    console.log(`${file}: ${e.message}`);
  } finally {
    console.error = quiet;
  }
}
process.exit(failed ? 1 : 0);
