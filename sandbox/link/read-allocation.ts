import type { Allocation } from '../link-api-schemas.js';

/** Dollars and cents, at most two decimals; no sign, no thousands separators. */
const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;
/** A whole percentage. */
const PERCENT = /^\d{1,3}$/;

/**
 * Reads the user's allocation. Returns the allocation with the amount in
 * minor units (cents), or a message saying what is wrong with the input.
 */
export function readAllocation(type: Allocation['type'], input: string): Allocation | string {
  const text = input.trim().replace(/^\$/, '');
  if (type === 'remainder') return { type };
  if (type === 'amount') {
    if (!AMOUNT.test(text)) return 'Enter an amount in dollars, such as 250 or 250.50.';
    const [whole = '0', cents = ''] = text.split('.');
    const value = Number(whole) * 100 + Number(cents.padEnd(2, '0'));
    return value > 0 ? { type, value } : 'Enter an amount greater than zero.';
  }
  const value = Number(text);
  return PERCENT.test(text) && value >= 1 && value <= 100 ? { type, value } : 'Enter a whole percentage from 1 to 100.';
}

