// Type-checked only (never built): `<payroll-link>` in Vue's GlobalComponents, from `payroll-link/vue`.
/// <reference types="payroll-link/vue" />
import type { GlobalComponents } from 'vue';

type Instance = InstanceType<GlobalComponents['payroll-link']>;
type Props = Instance['$props'];

export const props: Props = { tokenUrl: '/api/link-token', linkUrl: 'https://link.example.com/link', prefetch: true };

// @ts-expect-error tokenUrl is a string.
export const wrongProp: Props = { tokenUrl: 42 };

/** `@link-success` is typed by the event's detail. */
export const emits = (emit: Instance['$emit']) => {
  emit(
    'link-success',
    new CustomEvent('link-success', { detail: { accountId: '', platformId: '', jobId: '', job: '', params: {}, linkTokenId: '' } }),
  );
  // @ts-expect-error link-login carries a CustomEvent<LoginDetail>, not a string.
  emit('link-login', 'nope');
};
