import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * The sizes a newcomer can hold in their head (issue 25): no source file over 600 lines and no function over 120.
 * Source is every tracked `.ts` and `.mjs` outside test/, less declaration files and generated tables.
 */
const ROOT = join(__dirname, '..', '..', '..');
const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 120;
/** Cohesive enough to stay whole. */
const LONG_FILES_ALLOWED = new Set(['local-server/store-integrity.ts']);
const GENERATED = new Set(['lambdas/core/domain/currency-table.ts']);

const SOURCES = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.mjs'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((path) => path !== '' && !path.startsWith('test/') && !path.endsWith('.d.ts') && !GENERATED.has(path));

interface LongFunction {
  where: string;
  name: string;
  lines: number;
}

function lineOf(file: ts.SourceFile, position: number): number {
  return file.getLineAndCharacterOfPosition(position).line;
}

/** What a reader would search for: the declared name, or the variable or property the function is assigned to. */
function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText();
  return '(anonymous)';
}

function longFunctions(path: string, text: string): LongFunction[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as ts.Node & { body?: ts.Node }).body) {
      const start = lineOf(file, node.getStart(file));
      const lines = lineOf(file, node.getEnd()) - start + 1;
      if (lines > MAX_FUNCTION_LINES) found.push({ where: `${path}:${start + 1}`, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const texts = new Map(SOURCES.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));

describe('the shape of the codebase', () => {
  it('finds the source it measures', () => {
    expect(SOURCES).toEqual(expect.arrayContaining(['lib/stacks.ts', 'web/src/main.ts', 'local-server/service.ts']));
  });

  it(`keeps every source file within ${MAX_FILE_LINES} lines, local-server/store-integrity.ts aside`, () => {
    const long = [...texts]
      .map(([path, text]) => ({ path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }))
      .filter(({ path, lines }) => lines > MAX_FILE_LINES && !LONG_FILES_ALLOWED.has(path))
      .map(({ path, lines }) => `${path}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it(`keeps every function within ${MAX_FUNCTION_LINES} lines`, () => {
    const long = [...texts]
      .flatMap(([path, text]) => longFunctions(path, text))
      .map(({ where, name, lines }) => `${where} ${name}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
