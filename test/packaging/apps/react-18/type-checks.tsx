// Type-checked only (never built): the wrapper's handler props are typed by the events' detail.
import { PayrollLink } from 'payroll-link/react';
import type { SuccessDetail } from 'payroll-link';

export const handlerGetsTheEvent = <PayrollLink onSuccess={(event) => event.detail.jobId.toUpperCase()} />;

const takesDetail = (detail: SuccessDetail) => detail.jobId;
// @ts-expect-error The handler gets the CustomEvent, not its detail.
export const notTheDetail = <PayrollLink onSuccess={takesDetail} />;

// @ts-expect-error tokenUrl is a string.
export const wrongPropType = <PayrollLink tokenUrl={42} />;
