/** The plans side by side, the holder's own marked, and how to ask for another: upgrades are not self-service. */
import type { ViewRenderer } from '../app';
import { fill, h, uid } from '../dom';
import { contactLink, formatCount, formatEuros, formatLimit } from '../format';
import type { PlanSummary, PlansData } from '../types';
import { heading, loading, showLoaded } from './common';

function planCard(plan: PlanSummary, current: boolean): HTMLElement {
  const headingId = uid(`plan-${plan.id}`);
  return h(
    'section',
    { class: current ? 'card plan current' : 'card plan', 'aria-labelledby': headingId },
    // The badge's separator is read out but not shown, so the heading reads "Free, your plan".
    h(
      'h2',
      { id: headingId },
      plan.name,
      current ? h('span', { class: 'visually-hidden' }, ', ') : null,
      current ? h('span', { class: 'badge ok' }, 'Your plan') : null,
    ),
    h(
      'p',
      { class: 'price' },
      h('strong', null, formatEuros(plan.price_eur_per_month)),
      plan.price_eur_per_month > 0 ? ' a month' : null,
    ),
    h(
      'ul',
      { class: 'plan-facts' },
      h('li', null, `${formatCount(plan.monthly_limit)} requests a month`),
      h('li', null, `${formatCount(plan.per_minute)} requests a minute`),
      h(
        'li',
        null,
        plan.overflow_percent > 0
          ? `Up to ${plan.overflow_percent} % more before requests are refused`
          : 'No overflow: requests past the limit are refused',
      ),
      h('li', null, `History: ${plan.history}`),
      h(
        'li',
        null,
        plan.max_active_keys === null
          ? 'Unlimited active API keys'
          : `${formatLimit(plan.max_active_keys)} active API key${plan.max_active_keys === 1 ? '' : 's'}`,
      ),
      plan.extras ? h('li', null, plan.extras) : null,
    ),
  );
}

/**
 * How to ask for another plan. The operator finds an account by its e-mail address (the admin CLI's account
 * list), so the request names it. Without a configured contact the page says so plainly, and what the operator sets
 * to fill it in, rather than pointing at an operator the customer has no way to reach.
 */
function howToChange(contact: string | null, email: string | undefined): HTMLElement {
  const headingId = uid('upgrade');
  const link = contactLink(contact);
  const mention = h(
    'p',
    null,
    'In your request, name the plan you want and the e-mail address you sign in with',
    email ? ' (' : null,
    email ? h('strong', null, email) : null,
    email ? ')' : null,
    '. Once the operator has changed your plan, your new limits show here.',
  );
  return h(
    'section',
    { class: 'card', 'aria-labelledby': headingId },
    h('h2', { id: headingId }, 'Changing your plan'),
    ...(link
      ? [
          h(
            'p',
            null,
            'Plans are changed by the operator of this service, not on this page. To ask for another plan, write to ',
            h('a', { href: link.href, rel: 'noopener' }, link.text),
            '.',
          ),
        ]
      : [
          h(
            'p',
            null,
            'Plans are changed by the operator of this service, not on this page. ',
            h('strong', null, 'This service has not published a contact for plan changes.'),
            ' Ask the person or team who gave you the address of this dashboard.',
          ),
          h(
            'p',
            { class: 'hint' },
            'If you run this service: set ',
            h('code', null, 'UPGRADE_CONTACT'),
            ' (local server) or the ',
            h('code', null, 'upgradeContact'),
            ' context value (AWS) to an e-mail address or an https:// address, and it shows here.',
          ),
        ]),
    mention,
  );
}

export const plansView: ViewRenderer = (app, root) => {
  const { header } = heading('Plans', 'The plans differ in monthly volume, requests a minute, history and keys.');
  const body = h('div', { class: 'plans-body' }, loading('Loading the plans…'));
  root.append(header, body);
  void showLoaded(app, app.generation, body, app.api.plans(), (data: PlansData) =>
    fill(
      body,
      h('div', { class: 'plans' }, ...data.plans.map((plan) => planCard(plan, plan.id === data.current))),
      howToChange(data.contact ?? app.config.contact, app.session?.email),
    ),
  );
  return undefined;
};
