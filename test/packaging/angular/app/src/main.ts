// An Angular app around docs/angular.md's element snippet (src/docs/connect-payroll.component.ts, written there by
// angular.test.ts with the fake Link page's URL in it). The page's other snippets are compiled (tsconfig.json
// includes src/) but not imported: `ng build` type-checks them, and the first load is the element's alone.
import { Component } from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import { observeSession } from '../../../frameworks/observe-session';
import { ConnectPayrollComponent } from './docs/connect-payroll.component';

@Component({
  selector: 'app-root',
  imports: [ConnectPayrollComponent],
  template: `<app-connect-payroll userId="user-angular" />`,
})
class AppRoot {}

observeSession();
bootstrapApplication(AppRoot).catch((error: unknown) => console.error(error));
