// Vue 3: the element registers on import; Vue is told at compile time that <payroll-link> is a
// custom element (the test's Vite config: isCustomElement, as the docs document it).
import 'payroll-link';
import { createApp } from 'vue';
import App from './App.vue';

createApp(App).mount('#app');
