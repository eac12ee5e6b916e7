// A Svelte 5 app around the README's component (ConnectPayroll.svelte, written there by the test
// from the README's "Svelte 5" snippet, with the fake Link page's URL in it).
import { mount } from 'svelte';
import { observeSession } from '../../../frameworks/observe-session';
import ConnectPayroll from './ConnectPayroll.svelte';

observeSession();
mount(ConnectPayroll, { target: document.getElementById('app')!, props: { userId: 'user-svelte' } });
