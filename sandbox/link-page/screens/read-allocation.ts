import type { Allocation } from '../../api/link-api-schemas.js';
import type { LinkStrings } from '../app/link-strings.js';

/** Dollars and cents, at most two decimals; no sign, no thousands separators. */
const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;
/** A whole percentage. */
const PERCENT = /^\d{1,3}$/;

/**
 * Reads the user's allocation. Returns the allocation with the amount in
 * minor units (cents), or a message (in the page's language) saying what is wrong with the input.
 */
export function readAllocation(
  type: Allocation['type'],
  input: string,
  strings: Pick<LinkStrings, 'amountFormat' | 'amountPositive' | 'percentageRange'>,
): Allocation | string {
  const text = input.trim().replace(/^\$/, '');
  if (type === 'remainder') return { type };
  if (type === 'amount') {
    if (!AMOUNT.test(text)) return strings.amountFormat;
    const [whole = '0', cents = ''] = text.split('.');
    const value = Number(whole) * 100 + Number(cents.padEnd(2, '0'));
    return value > 0 ? { type, value } : strings.amountPositive;
  }
  const value = Number(text);
  return PERCENT.test(text) && value >= 1 && value <= 100 ? { type, value } : strings.percentageRange;
}
