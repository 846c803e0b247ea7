/** An in-page confirmation: a modal <dialog>, so focus stays inside it and Escape cancels. */
import { h, uid } from '../dom';

export function confirmDialog(options: { title: string; body: string; confirm: string }): Promise<boolean> {
  const titleId = uid('dialog-title');
  const bodyId = uid('dialog-body');
  const cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
  const confirm = h('button', { type: 'button', class: 'danger' }, options.confirm);
  const dialog = h(
    'dialog',
    { class: 'confirm', 'aria-labelledby': titleId, 'aria-describedby': bodyId },
    h('h2', { id: titleId }, options.title),
    h('p', { id: bodyId }, options.body),
    h('div', { class: 'actions' }, cancel, confirm),
  );
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  cancel.addEventListener('click', () => dialog.close('cancel'));
  confirm.addEventListener('click', () => dialog.close('confirm'));
  document.body.append(dialog);
  dialog.showModal();
  // The harmless choice has focus, so an Enter pressed out of habit does not revoke.
  cancel.focus();
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        resolve(dialog.returnValue === 'confirm');
        dialog.remove();
        if (opener?.isConnected) opener.focus();
      },
      { once: true },
    );
  });
}
