import {
  contactLink,
  curlExample,
  daysInMonth,
  formatCount,
  formatDate,
  formatDateTime,
  formatEuros,
  formatLimit,
  formatMonth,
  formatPercentUsed,
  formatPrefix,
  percentUsed,
  timeUntil,
} from '../../../web/src/format';

describe('figures on the page', () => {
  it('groups thousands with commas whatever the machine locale', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1500)).toBe('1,500');
    expect(formatCount(125000)).toBe('125,000');
  });

  it('shows whole euro prices without cents and other prices with two decimals', () => {
    expect(formatEuros(0)).toBe('€0');
    expect(formatEuros(29)).toBe('€29');
    expect(formatEuros(9.5)).toBe('€9.50');
  });

  it('calls an unlimited allowance unlimited', () => {
    expect(formatLimit(null)).toBe('Unlimited');
    expect(formatLimit(1)).toBe('1');
  });

  it('rounds the share used down, so 100 % appears only once the quota is used up', () => {
    expect(percentUsed(0, 1500)).toBe(0);
    expect(percentUsed(1499, 1500)).toBe(99);
    expect(percentUsed(1500, 1500)).toBe(100);
    expect(percentUsed(1650, 1500)).toBe(110);
    expect(percentUsed(0, 0)).toBe(0);
    expect(percentUsed(3, 0)).toBe(100);
  });

  it('says <1 % once a request is used, and 0 % only before any', () => {
    expect(formatPercentUsed(0, 1500)).toBe('0 %');
    expect(formatPercentUsed(1, 1500)).toBe('<1 %');
    expect(formatPercentUsed(15, 1500)).toBe('1 %');
    expect(formatPercentUsed(1500, 1500)).toBe('100 %');
  });

  it('shows a key prefix with an ellipsis, since it is only the start of the key', () => {
    expect(formatPrefix('fxr_Ab3x')).toBe('fxr_Ab3x…');
    expect(formatPrefix(null)).toBe('not shown');
  });
});

describe('dates on the page', () => {
  it('shows days in UTC, the API clock, even near midnight', () => {
    expect(formatDate('2026-11-23T23:59:59.000Z')).toBe('23 Nov 2026');
    expect(formatDate('2026-11-01')).toBe('1 Nov 2026');
  });

  it('says UTC wherever a time of day shows', () => {
    expect(formatDateTime('2026-12-01T00:00:00.000Z')).toBe('1 Dec 2026, 00:00 UTC');
    expect(formatDateTime('2026-03-09T07:05:00Z')).toBe('9 Mar 2026, 07:05 UTC');
  });

  it('passes text that is no date through unchanged rather than showing "Invalid Date"', () => {
    expect(formatDate('soon')).toBe('soon');
    expect(formatDateTime('soon')).toBe('soon');
  });

  it('names the month of the usage series', () => {
    expect(formatMonth('2026-11')).toBe('November 2026');
    expect(formatMonth('2026-13')).toBe('2026-13');
  });

  it('counts the days of a month, leap Februaries included', () => {
    expect(daysInMonth('2026-11')).toBe(30);
    expect(daysInMonth('2026-12')).toBe(31);
    expect(daysInMonth('2026-02')).toBe(28);
    expect(daysInMonth('2028-02')).toBe(29);
    expect(daysInMonth('2026-00')).toBe(0);
    expect(daysInMonth('nope')).toBe(0);
  });

  it('says how long until the quota resets in hours, then days', () => {
    const now = Date.parse('2026-11-23T17:00:00Z');
    expect(timeUntil('2026-12-01T00:00:00Z', now)).toBe('in 7 days');
    expect(timeUntil('2026-11-24T00:00:00Z', now)).toBe('in 7 hours');
    expect(timeUntil('2026-11-23T18:00:00Z', now)).toBe('in 1 hour');
    expect(timeUntil('2026-11-23T17:30:00Z', now)).toBe('in less than an hour');
    expect(timeUntil('2026-11-23T16:00:00Z', now)).toBe('now');
  });
});

describe('the example request', () => {
  it('calls the latest-rates endpoint under the configured public API URL, with the key from the shell', () => {
    expect(curlExample('https://api.example.com/v1/')).toBe(
      `curl -H "X-API-Key: $FXRATES_KEY" 'https://api.example.com/v1/rates/latest?base=EUR'`,
    );
  });

  it('adds the slash a configured URL lacks', () => {
    expect(curlExample('http://127.0.0.1:3000/v1')).toContain("'http://127.0.0.1:3000/v1/rates/latest?base=EUR'");
  });
});

describe("the operator's contact", () => {
  it('links a mailto: contact and shows the bare address', () => {
    expect(contactLink('mailto:sales@example.com')).toEqual({
      href: 'mailto:sales@example.com',
      text: 'sales@example.com',
    });
  });

  it('turns a bare address into a mailto: link', () => {
    expect(contactLink('sales@example.com')).toEqual({ href: 'mailto:sales@example.com', text: 'sales@example.com' });
  });

  it('links a web address and shows it without the scheme', () => {
    expect(contactLink('https://example.com/contact')).toEqual({
      href: 'https://example.com/contact',
      text: 'example.com/contact',
    });
  });

  it('refuses script URLs and anything else that is no mail or web address', () => {
    expect(contactLink('javascript:alert(1)')).toBeNull();
    expect(contactLink('data:text/html,hi')).toBeNull();
    expect(contactLink('call us')).toBeNull();
    expect(contactLink(null)).toBeNull();
  });
});
