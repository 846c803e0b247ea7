/**
 * API keys: name a new key, see it once, list and revoke keys. The server decides what is allowed; the page shows
 * its verdict, why, and when the creation limit allows the next key.
 */
import { ApiFailure } from '../api';
import type { App, ViewRenderer } from '../app';
import { busy, field, fill, h, uid } from '../dom';
import { formatDate, formatPrefix } from '../format';
import { KEY_NAME_MAX_LENGTH, keyNameMessage } from '../input-rules';
import type { CreatedKey, KeySummary, KeysData } from '../types';
import { flagInput, heading, loading, showLoaded } from './common';
import { confirmDialog } from './confirm';

/** The browser's clock may run ahead of the server's: an early answer must not become a loop of requests. */
const MIN_RECHECK_MS = 5_000;

/** Copies the key; where the clipboard is out of reach, selects it for the customer to copy by hand. */
async function copyKey(app: App, input: HTMLTextAreaElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(input.value);
    app.notify({ kind: 'success', text: 'The key is copied to the clipboard.' });
  } catch {
    input.focus();
    input.select();
    app.notify({
      kind: 'error',
      text: 'The page cannot reach the clipboard. The key is selected: copy it with Ctrl+C or ⌘C.',
    });
  }
}

/** The new key, shown once. `onDone` removes it from the page. */
function newKeyPanel(app: App, created: CreatedKey, onDone: () => void): HTMLElement {
  const headingId = uid('new-key');
  const warningId = uid('new-key-warning');
  const inputId = uid('new-key-value');
  // A text area rather than an input, so the whole key shows even where it needs two lines.
  const input = h('textarea', {
    id: inputId,
    class: 'key-value',
    readonly: true,
    rows: 2,
    spellcheck: 'false',
    autocomplete: 'off',
    autocapitalize: 'none',
    'aria-describedby': warningId,
  });
  input.value = created.key;
  input.addEventListener('focus', () => input.select());
  const copy = h('button', { type: 'button', class: 'primary' }, 'Copy');
  copy.addEventListener('click', () => void copyKey(app, input));
  const done = h('button', { type: 'button', class: 'secondary' }, 'I have saved it');
  done.addEventListener('click', () => {
    app.clearNotices();
    onDone();
  });
  const title = h('h2', { id: headingId, tabindex: -1 }, `Your new key "${created.name}"`);
  const panel = h(
    'section',
    { class: 'card new-key', 'aria-labelledby': headingId },
    title,
    h(
      'p',
      { class: 'warn', id: warningId },
      h('strong', null, 'You will not see this key again.'),
      ' Copy it now and keep it somewhere safe. If you lose it, revoke it and create a new one.',
    ),
    h('label', { for: inputId }, 'API key'),
    h('div', { class: 'copy-row' }, input, copy),
    h('div', { class: 'actions' }, done),
  );
  queueMicrotask(() => title.focus());
  return panel;
}

function statusCell(key: KeySummary): HTMLTableCellElement {
  if (key.status === 'active') return h('td', { 'data-label': 'Status' }, h('span', { class: 'badge ok' }, 'Active'));
  const when = key.revoked_at ? ` ${formatDate(key.revoked_at)}` : '';
  return h('td', { 'data-label': 'Status' }, h('span', { class: 'badge off' }, `Revoked${when}`));
}

/** The form that names a new key; its button follows the server's verdict on whether a key can be created. */
function createForm() {
  const { wrapper, input: name } = field({
    label: 'Key name',
    name: 'name',
    hint: 'Up to 64 characters, such as "my laptop" or "billing server".',
    attrs: { maxlength: KEY_NAME_MAX_LENGTH, autocomplete: 'off', required: true },
  });
  const nameHintId = `${name.id}-hint`;
  const reasonId = uid('key-reason');
  const create = h('button', { type: 'submit', class: 'primary', disabled: true }, 'Create key');
  const reason = h('p', { class: 'reason', id: reasonId, hidden: true });
  const createHeadingId = uid('create');
  const form = h(
    'form',
    { class: 'card form', novalidate: true, 'aria-labelledby': createHeadingId },
    h('h2', { id: createHeadingId }, 'Create a key'),
    wrapper,
    h('div', { class: 'actions' }, create, reason),
  );
  const reflect = (data: KeysData): void => {
    create.disabled = !data.can_create;
    const why = data.can_create ? '' : (data.cannot_create_reason ?? 'Your account cannot create keys now.');
    reason.textContent = why;
    reason.hidden = why === '';
    create.setAttribute('aria-describedby', why === '' ? nameHintId : `${reasonId} ${nameHintId}`);
  };
  return { form, name, create, reflect };
}

function keysTable(keys: KeySummary[], revokeButton: (key: KeySummary) => HTMLButtonElement): HTMLTableElement {
  return h(
    'table',
    { class: 'keys' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ...['Name', 'Starts with', 'Created', 'Status'].map((title) => h('th', { scope: 'col' }, title)),
        h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
      ),
    ),
    h(
      'tbody',
      null,
      ...keys.map((key) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row', 'data-label': 'Name' }, key.name),
          h('td', { 'data-label': 'Starts with' }, h('code', null, formatPrefix(key.prefix))),
          h('td', { 'data-label': 'Created' }, h('time', { datetime: key.created_at }, formatDate(key.created_at))),
          statusCell(key),
          h('td', { class: 'row-actions' }, key.status === 'active' ? revokeButton(key) : null),
        ),
      ),
    ),
  );
}

/** Revokes `key` once the customer confirms; `afterwards` runs whatever the outcome. */
function revokeButton(app: App, key: KeySummary, afterwards: () => Promise<void>): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: 'danger small', 'aria-label': `Revoke key "${key.name}"` },
    'Revoke',
  );
  button.addEventListener('click', async () => {
    app.clearNotices();
    const sure = await confirmDialog({
      title: `Revoke the key "${key.name}"?`,
      body: 'Programs that use this key are refused within a minute. This cannot be undone.',
      confirm: 'Revoke key',
    });
    if (!sure) return;
    try {
      await busy(button, 'Revoking…', () => app.api.revokeKey(key.id));
      app.notify({
        kind: 'success',
        text: `The key "${key.name}" is revoked. Requests with it are refused within a minute.`,
      });
    } catch (error) {
      app.apiFailed(error, 'revoke-key');
    }
    await afterwards();
  });
  return button;
}

/** When only the creation limit stands in the way, how long until it allows a key; undefined otherwise. */
function recheckDelay(data: KeysData): number | undefined {
  if (data.can_create || data.next_key_at === null) return undefined;
  const wait = Math.max(MIN_RECHECK_MS, Date.parse(data.next_key_at) - Date.now() + 1000);
  return Number.isFinite(wait) ? wait : undefined;
}

export const keysView: ViewRenderer = (app, root) => {
  const { header } = heading(
    'API keys',
    'Programs send a key in the X-API-Key header. Name each key after where it is used, so you know which to revoke.',
  );
  const generation = app.generation;
  const { form, name, create, reflect: reflectInForm } = createForm();
  const newKeySlot = h('div', { class: 'new-key-slot' });
  const listHeadingId = uid('list');
  const listHeading = h('h2', { id: listHeadingId, tabindex: -1 }, 'Your keys');
  const list = h('div', { class: 'key-list' }, loading('Loading your keys…'));
  root.append(
    header,
    newKeySlot,
    form,
    h('section', { class: 'card', 'aria-labelledby': listHeadingId }, listHeading, list),
  );

  // The button comes back by itself once the creation limit allows a key.
  let recheck: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => showLoaded(app, generation, list, app.api.listKeys(), reflect);
  const revoke = (key: KeySummary) =>
    revokeButton(app, key, async () => {
      await refresh();
      listHeading.focus();
    });

  function reflect(data: KeysData): void {
    clearTimeout(recheck);
    const wait = recheckDelay(data);
    recheck = wait === undefined ? undefined : setTimeout(() => void refresh(), wait);
    reflectInForm(data);
    fill(
      list,
      data.keys.length === 0 ? h('p', null, 'You have no keys yet. Create one above.') : keysTable(data.keys, revoke),
    );
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (create.disabled) return;
    app.clearNotices();
    const problem = keyNameMessage(name.value);
    if (problem) {
      app.notify({ kind: 'error', text: problem });
      flagInput(name);
      return;
    }
    try {
      const created = await busy(create, 'Creating…', () => app.api.createKey(name.value.trim()));
      if (!app.current(generation)) return;
      name.value = '';
      fill(
        newKeySlot,
        newKeyPanel(app, created, () => {
          fill(newKeySlot);
          name.focus();
        }),
      );
    } catch (error) {
      app.apiFailed(error, 'create-key');
      if (error instanceof ApiFailure && error.param === 'name') flagInput(name);
    }
    await refresh();
  });

  void refresh();
  return () => {
    clearTimeout(recheck);
    // The key must not outlive the view that showed it.
    fill(newKeySlot);
  };
};
