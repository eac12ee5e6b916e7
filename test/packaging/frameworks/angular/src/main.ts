// An Angular app around the docs' component (connect-payroll.component.ts, written there by
// the test from docs/angular.md's snippet, with the fake Link page's URL in it).
import { Component } from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import { observeSession } from '../../observe-session';
import { ConnectPayrollComponent } from './connect-payroll.component';

@Component({
  selector: 'app-root',
  imports: [ConnectPayrollComponent],
  template: `<app-connect-payroll userId="user-angular" />`,
})
class AppRoot {}

observeSession();
bootstrapApplication(AppRoot).catch((error: unknown) => console.error(error));
