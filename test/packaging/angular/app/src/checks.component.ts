// What docs/angular.md says Angular's template type-checker does with the element, as templates that must
// compile (`ng build` in angular.test.ts fails otherwise). Compiled, never rendered.
import { CUSTOM_ELEMENTS_SCHEMA, Component } from '@angular/core';
import type { ExitDetail, SuccessDetail } from 'payroll-link';
import 'payroll-link';

/** `true` only when T is exactly Expected: not wider (`Event`), not narrower, not `any`. */
type Exactly<T, Expected> = 0 extends 1 & T
  ? 'any'
  : [T] extends [Expected]
    ? [Expected] extends [T]
      ? true
      : 'narrower'
    : 'not assignable';

@Component({
  selector: 'app-checks',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <!-- $event is the package's type for the event, with no cast. -->
    <payroll-link (link-success)="exactly($event, true)" (link-exit)="exitedWith($event, true)"></payroll-link>
    <!-- CUSTOM_ELEMENTS_SCHEMA checks no property of the element: this compiles. -->
    <payroll-link [display]="'bogus'" [endUserId]="42"></payroll-link>
  `,
})
export class ChecksComponent {
  exactly<T>(event: T, check: Exactly<T, CustomEvent<SuccessDetail>>): void {
    void [event, check];
  }

  exitedWith<T>(event: T, check: Exactly<T, CustomEvent<ExitDetail>>): void {
    void [event, check];
  }
}
