/**
 * A few helpers to build elements in code. Text always goes in as text nodes, never as markup, so nothing the
 * servers send can turn into script.
 */

export type Child = Node | string | number | null | undefined | false;
type Handler = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | null | undefined | Handler>;

function apply(element: Element, attrs: Attrs | null | undefined): void {
  if (!attrs) return;
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.setAttribute('class', String(value));
    else element.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, attrs);
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  apply(element, attrs);
  append(element, children);
  return element;
}

let lastId = 0;
/** A document-unique id, for label, aria-describedby and aria-labelledby pairs. */
export function uid(prefix: string): string {
  lastId += 1;
  return `${prefix}-${lastId}`;
}

export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
}

export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** The button keeps its place and size; aria-busy tells assistive technology the form is working. */
export async function busy<T>(button: HTMLButtonElement, busyLabel: string, work: () => Promise<T>): Promise<T> {
  const label = button.textContent ?? '';
  const form = button.form;
  button.disabled = true;
  button.textContent = busyLabel;
  button.classList.add('busy');
  form?.setAttribute('aria-busy', 'true');
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.textContent = label;
    button.classList.remove('busy');
    form?.removeAttribute('aria-busy');
  }
}

export interface FieldOptions {
  label: string;
  name: string;
  type?: string;
  hint?: string;
  attrs?: Attrs;
}

/** A labelled input with an optional hint that the input names as its description. */
export function field(options: FieldOptions): { wrapper: HTMLDivElement; input: HTMLInputElement } {
  const id = uid(options.name);
  const hintId = options.hint ? `${id}-hint` : null;
  const input = h('input', {
    id,
    name: options.name,
    type: options.type ?? 'text',
    'aria-describedby': hintId,
    ...options.attrs,
  });
  const wrapper = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, options.label),
    input,
    hintId ? h('p', { class: 'hint', id: hintId }, options.hint) : null,
  );
  return { wrapper, input };
}
