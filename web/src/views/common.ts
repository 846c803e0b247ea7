/** Pieces several views share. */
import type { App } from '../app';
import { fill, h, uid } from '../dom';

/** The view's heading; views focus it when drawn, so a screen reader starts reading at the new content. */
export function heading(text: string, intro?: string): { title: HTMLHeadingElement; header: HTMLElement } {
  const title = h('h1', { tabindex: -1, id: uid('title') }, text);
  return {
    title,
    header: h('header', { class: 'view-header' }, title, intro ? h('p', { class: 'lead' }, intro) : null),
  };
}

/** Marks a field wrong, moves focus there, and clears the mark at the next keystroke. */
export function flagInput(input: HTMLInputElement): void {
  input.setAttribute('aria-invalid', 'true');
  input.addEventListener('input', () => input.removeAttribute('aria-invalid'), { once: true });
  input.focus();
}

/** A "Show password" switch for one or more password inputs. */
export function showPasswordToggle(...inputs: HTMLInputElement[]): HTMLDivElement {
  const id = uid('show-password');
  const box = h('input', { type: 'checkbox', id });
  box.addEventListener('change', () => {
    for (const input of inputs) input.type = box.checked ? 'text' : 'password';
  });
  return h('div', { class: 'check' }, box, h('label', { for: id }, 'Show password'));
}

export function loading(text: string): HTMLParagraphElement {
  return h('p', { class: 'loading', role: 'status' }, text);
}

/** A link to another view of the page. */
export function viewLink(hash: string, text: string): HTMLAnchorElement {
  return h('a', { href: hash }, text);
}

/**
 * Shows what `load` answers with `show`, or the failure; an answer for a view drawn under an older generation is
 * dropped. A failure empties `body` of its loading message.
 */
export function showLoaded<T>(
  app: App,
  generation: number,
  body: HTMLElement,
  load: Promise<T>,
  show: (data: T) => void,
): Promise<void> {
  return load.then(
    (data) => {
      if (app.current(generation)) show(data);
    },
    (error: unknown) => {
      if (!app.current(generation)) return;
      fill(body);
      app.apiFailed(error, 'load');
    },
  );
}
