// A Svelte 5 app around the docs' component (ConnectPayroll.svelte, written there by the test
// from the docs' "Svelte 5" snippet, with the fake Link page's URL in it).
import { mount } from 'svelte';
import { observeSession } from '../../../frameworks/observe-session';
import ConnectPayroll from './ConnectPayroll.svelte';

observeSession();
mount(ConnectPayroll, { target: document.getElementById('app')!, props: { userId: 'user-svelte' } });
