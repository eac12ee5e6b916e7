/**
 * What must hold before any other module of the launch page runs (imported first): the page's CSP allows no `eval` and
 * no style without its nonce. zod would probe `new Function` (a CSP violation report each time), and Lit gives a
 * `<style>` it adds, where a browser lacks constructable stylesheets, the nonce it finds in `litNonce`.
 */
import { config } from 'zod/mini';

config({ jitless: true });
(globalThis as { litNonce?: string }).litNonce = document.currentScript?.nonce || undefined;
