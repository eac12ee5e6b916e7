/** A job's `params`: flat primitives (as the Link `success` event carries them). */
import type { Allocation, Job } from './resources.js';

/** The params of a deposit switch: `{ allocation_type, allocation_value }` (value null for the remainder). */
export const allocationParams = (allocation: Allocation): Job['params'] => ({
  allocation_type: allocation.type,
  allocation_value: allocation.type === 'remainder' ? null : allocation.value,
});
