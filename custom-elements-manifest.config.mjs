// The analyzer's settings for `npm run build:package` (it runs on its own TypeScript 5, bundled with it):
// the manifest describes the published files, so paths point at dist/ and internals are left out.
import { readFileSync } from 'node:fs';

/** Rewrites `src/x.ts` to `dist/x.js`: users get the built files, not the sources. */
const toDist = (path) => path.replace(/^src\/(.*)\.ts$/, 'dist/$1.js');

/** Drops private members and internal reactive state (`_status`) that the Lit plugin reports as attributes. */
const isPublic = (item) => item.privacy !== 'private' && !item.name.startsWith('#') && !item.name.startsWith('_');

function publishedShape() {
  return {
    name: 'payroll-link:published-shape',
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        module.path = toDist(module.path);
        for (const exported of module.exports ?? []) {
          if (exported.declaration?.module) exported.declaration.module = toDist(exported.declaration.module);
        }
        for (const declaration of module.declarations ?? []) {
          if (declaration.members) declaration.members = declaration.members.filter(isPublic);
          if (declaration.attributes) declaration.attributes = declaration.attributes.filter(isPublic);
        }
      }
    },
  };
}

/**
 * The element's source as the analyzer reads it: its options written out from their table, `ELEMENT_OPTIONS` in
 * src/protocol/element-options.ts, as a hand-written Lit element would have them, so that the Lit plugin gives each
 * its attribute, field, type, default and description: `static properties` gets each row's Lit declaration in place
 * of `...ELEMENT_OPTIONS` (the plugin reads an object literal only, so the `as const` goes too), and the class a field
 * per row, typed by the row's `value` cast, with its default and the row's doc comment.
 */
function elementWithOptions(ts, source, { file = 'src/protocol/element-options.ts', table = 'ELEMENT_OPTIONS' } = {}) {
  const rows = objectLiteral(ts, file, table);
  const text = (node) => node.getText(rows.getSourceFile());
  const declarations = [];
  const fields = [];
  for (const row of rows.properties) {
    const name = row.name.getText(rows.getSourceFile());
    const keys = row.initializer.properties;
    const lit = keys.filter((key) => ['attribute', 'reflect', 'type', 'converter'].includes(key.name.text)).map(text);
    declarations.push(`${name}: { ${lit.join(', ')} },`);
    const value = keys.find((key) => key.name.text === 'value')?.initializer;
    if (!value || !ts.isAsExpression(value)) throw new Error(`${table}.${name} in ${file}: its value is no \`<default> as <type>\`.`);
    const [doc] = ts.getJSDocCommentsAndTags(row).filter(ts.isJSDoc);
    if (!doc) throw new Error(`${table}.${name} in ${file} has no doc comment: it is the option's description.`);
    const initial = text(value.expression);
    fields.push(
      `${text(doc)}\n${initial === 'undefined' ? 'declare ' : ''}${name}: ${text(value.type)}${initial === 'undefined' ? '' : ` = ${initial}`};`,
    );
  }
  const expanded = source.replace(
    /static override properties = \{ \.\.\.ELEMENT_OPTIONS,([^\n]*)\} as const;/,
    (_, rest) => `static override properties = {\n${declarations.join('\n')}\n${rest.trim()}\n};\n${fields.join('\n')}`,
  );
  if (expanded === source) throw new Error(`The element's static properties are no longer \`{ ...${table}, … } as const\`.`);
  return expanded;
}

/** The object literal a file's `const <name> = { … }` holds (through `as const` and `satisfies`). */
function objectLiteral(ts, file, name) {
  const source = ts.createSourceFile(file, readFileSync(new URL(file, import.meta.url), 'utf8'), ts.ScriptTarget.Latest, true);
  const declaration = source.statements
    .filter(ts.isVariableStatement)
    .flatMap((statement) => statement.declarationList.declarations)
    .find((node) => node.name.getText(source) === name);
  let literal = declaration?.initializer;
  while (literal && !ts.isObjectLiteralExpression(literal)) literal = literal.expression;
  if (!literal) throw new Error(`${file} declares no object literal ${name}.`);
  return literal;
}

/** The wire contract, whose Link events' payload schemas are the details of the element's events they bring. */
const CONTRACT = 'src/protocol.ts';

/**
 * The element's events and their callback properties, from the events' table: `ELEMENT_EVENTS` in
 * src/protocol/element-events.ts is the one list of the events, each row's doc comment its description, so the
 * element's doc block has no `@fires` and its class no callback fields to keep in step. Each row becomes what a
 * `@fires {CustomEvent<detail>} <name> - <description>` tag would have given, and its callback (but `onOpen`, which
 * the element leaves out) a field.
 */
function eventsFromTable({ file = 'src/protocol/element-events.ts', table = 'ELEMENT_EVENTS', tagName = 'payroll-link' } = {}) {
  let ts;
  return {
    name: 'payroll-link:events-from-table',
    initialize({ ts: typescript }) {
      ts = typescript;
    },
    packageLinkPhase({ customElementsManifest }) {
      const rows = objectLiteral(ts, file, table);
      const source = rows.getSourceFile();
      const contract = readFileSync(new URL(CONTRACT, import.meta.url), 'utf8');
      const rowField = (row, field) => row.properties.find((property) => property.name.getText(source) === field)?.initializer.text;
      const events = rows.properties.map((member) => {
        const name = member.name.text;
        const description = ts
          .getJSDocCommentsAndTags(member)
          .filter(ts.isJSDoc)
          .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
          .join(' ')
          .replace(/\s*\n\s*/g, ' ');
        if (!description) throw new Error(`${table}['${name}'] in ${file} has no doc comment: it is the event's description.`);
        // Its own schema, or its Link event's payload's (`eventMessage('login', LoginDetailSchema)` in the contract).
        const linkEvent = rowField(member.initializer, 'linkEvent');
        const schema =
          rowField(member.initializer, 'detail') ?? contract.match(new RegExp(`eventMessage\\('${linkEvent}', (\\w+)\\)`))?.[1];
        if (!schema) throw new Error(`${table}['${name}'] in ${file}: no detail schema, and no Link event's in ${CONTRACT}.`);
        const detail = schema.replace(/Schema$/, '');
        return {
          event: { type: { text: `CustomEvent<${detail}>` }, description, name },
          callback: rowField(member.initializer, 'callback'),
        };
      });
      const element = customElementsManifest.modules
        .flatMap((module) => module.declarations ?? [])
        .find((declaration) => declaration.tagName === tagName);
      if (!element) throw new Error(`The manifest has no <${tagName}>.`);
      if (element.events?.length) throw new Error(`<${tagName}> has events of its own (@fires?): they belong in ${table}.`);
      // The callback fields after the element's own, before its methods.
      const fields = events
        .filter(({ callback }) => callback !== 'onOpen')
        .map(({ event, callback }) => ({
          kind: 'field',
          name: callback,
          privacy: 'public',
          type: { text: `LinkCallbacks['${callback}']` },
          description: `Called with the \`${event.name}\` detail; read when it fires.`,
        }));
      const firstMethod = element.members.findIndex((member) => member.kind === 'method');
      element.members.splice(firstMethod === -1 ? element.members.length : firstMethod, 0, ...fields);
      // Where the analyzer puts the events of `@fires` tags, after the members, so the manifest reads the same.
      const entries = Object.entries(element);
      entries.splice(entries.findIndex(([key]) => key === 'members') + 1, 0, ['events', events.map(({ event }) => event)]);
      for (const [key] of entries) delete element[key];
      Object.assign(element, Object.fromEntries(entries));
    },
  };
}

const ELEMENT = 'src/element/payroll-link.ts';

export default {
  globs: [ELEMENT],
  overrideModuleCreation({ ts, globs }) {
    return globs.map((glob) => {
      const source = readFileSync(new URL(glob, import.meta.url), 'utf8');
      return ts.createSourceFile(glob, glob === ELEMENT ? elementWithOptions(ts, source) : source, ts.ScriptTarget.ES2015, true);
    });
  },
  outdir: 'dist',
  litelement: true,
  packagejson: false,
  plugins: [eventsFromTable(), publishedShape()],
};
