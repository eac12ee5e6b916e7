/// <reference types="payroll-link/svelte" />
/// <reference types="svelte" />
/// <reference types="vite/client" />
