// Issue 49's axe bar on every state of the flow, inline: see a11y/axe-states.ts.
import { describeAxeStates } from './a11y/axe-states.js';

describeAxeStates('inline');
