// Validates Grafana dashboards against Grafana's own dashboard schema: the TypeScript type
// `Dashboard` that @grafana/schema generates from Grafana's CUE kinds, turned into a JSON schema
// with ts-json-schema-generator and checked with ajv. Exits 1 on any violation.
//
//   node .ci/tools/validate-dashboards.mjs grafana/dashboards/*.json
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { createGenerator } from 'ts-json-schema-generator';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const schemaPackage = dirname(require.resolve('@grafana/schema/package.json'));
const types = join(schemaPackage, 'dist/types/raw/dashboard/x/types.gen.d.ts');
const version = JSON.parse(readFileSync(join(schemaPackage, 'package.json'), 'utf8')).version;

const schema = createGenerator({ path: types, type: 'Dashboard', skipTypeCheck: true }).createSchema('Dashboard');
writeFileSync(join(here, 'dashboard.schema.json'), JSON.stringify(schema, null, 2));

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: validate-dashboards.mjs DASHBOARD.json...');
  process.exit(2);
}
let failed = 0;
for (const file of files) {
  const dashboard = JSON.parse(readFileSync(file, 'utf8'));
  if (validate(dashboard)) {
    console.log(`valid: ${file} (Grafana dashboard schema of @grafana/schema ${version})`);
  } else {
    failed++;
    console.error(`INVALID: ${file}`);
    for (const error of validate.errors) {
      console.error(`  ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
    }
  }
}
process.exit(failed ? 1 : 0);
