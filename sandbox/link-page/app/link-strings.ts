/**
 * Every word the sandbox's Link page shows, in English and Spanish, and how
 * the page picks its language. Spanish is spoken for any `es` or `es-*` tag;
 * anything else gets English. The Link token's `language` (set by the
 * integrator's backend) wins; without it, the `language` of the widget's
 * `init` message (the embedding page's `lang`) decides. The choice is written
 * to the frame document's `<html lang>`, which every screen reads.
 * Right-to-left languages are out of scope.
 *
 * The English words are a contract (`docs/testing.md`, "Test your integration",
 * drives the page by these roles and labels): change them only on purpose.
 */
import type { LinkError, LinkErrorType } from '../../../src/protocol.js';
import type { SandboxUser } from '../../state/sandbox-users.js';

/** The languages the Link page speaks. */
export type LinkLanguage = 'en' | 'es';

/** The Link page's words. One shape for every language, so a missing translation is a type error. */
export interface LinkStrings {
  /** The frame document's `<title>`. */
  documentTitle: string;
  brand: string;
  sandboxBadge: string;
  closeLabel: string;
  footer: string;
  waitingHeading: string;
  waitingMessage: string;
  standaloneHeading: string;
  standaloneMessage: string;
  introHeading: (orgName: string, depositSwitch: boolean) => string;
  introLead: string;
  introStepFind: string;
  introStepLogIn: string;
  introStepAllocate: string;
  continue: string;
  introFinePrint: (orgName: string) => string;
  searchHeading: string;
  searchLead: string;
  searchLabel: string;
  searchResultsLabel: string;
  searchFailed: string;
  searching: string;
  noMatch: (query: string) => string;
  nothingYet: string;
  resultCount: (count: number, more: boolean) => string;
  loadMore: string;
  kind: Record<'employer' | 'payroll' | 'time_and_attendance', string>;
  backToSearch: string;
  loginHeading: (providerName: string | null) => string;
  loginLead: string;
  username: string;
  password: string;
  missingCredentials: string;
  loggingIn: string;
  logIn: string;
  wrongCredentials: string;
  unreachable: string;
  /** The OAuth-style platform's login screen: the lead, its button, the waiting line, the blocked window and its button. */
  oauthLead: (providerName: string | null) => string;
  oauthLogIn: (providerName: string | null) => string;
  oauthWaiting: string;
  oauthBlocked: string;
  oauthContinue: string;
  oauthRefused: string;
  /**
   * A long wait's time limit (WCAG 2.2.1): the warning `minutes` ahead, what the page says once the limit passed
   * with no answer (it has paused, and waits for the user), and the answers: another full period, or (the login in
   * the other window) a fresh login in a new window.
   */
  oauthWaitNear: (minutes: number) => string;
  oauthWaitPassed: string;
  jobWaitNear: (minutes: number) => string;
  jobWaitPassed: string;
  keepWaiting: string;
  tryAgain: string;
  /** Asked when the user closes while the job runs. */
  leaveQuestion: (depositSwitch: boolean) => string;
  leave: string;
  stay: string;
  sandboxCredentialsHeading: string;
  /** Before and after the test password, which the page shows as code. */
  sandboxPassword: readonly [before: string, after: string];
  sandboxOutcomes: Record<SandboxUser, string>;
  use: string;
  useLabel: (username: string) => string;
  mfaHeading: string;
  mfaLead: string;
  mfaLabel: string;
  /** Before the sandbox's code, which the page shows as code. */
  mfaSandboxHint: string;
  missingCode: string;
  wrongCode: string;
  checking: string;
  verify: string;
  allocationHeading: string;
  allocationLead: (providerName: string | null) => string;
  allocationLegend: string;
  choices: Record<'remainder' | 'amount' | 'percentage', { label: string; hint: string }>;
  amountLabel: string;
  percentageLabel: string;
  amountFormat: string;
  amountPositive: string;
  percentageRange: string;
  starting: string;
  switchDeposit: string;
  runningDefault: string;
  runningSwitch: string;
  runningSync: string;
  runningStatus: string;
  successSwitchHeading: string;
  successConnectHeading: string;
  successSwitchMessage: (providerName: string | null) => string;
  successConnectMessage: (orgName: string | null) => string;
  done: string;
  errorHeadings: Partial<Record<LinkErrorType, string>>;
  errorHeading: string;
  /** What the error screen says; the error's own message (the service's words, in English) where the page speaks English. */
  errorMessage: (error: LinkError | null) => string;
  errorCode: (code: string) => string;
  close: string;
  invalidTokenHeading: string;
  invalidTokenMessage: string;
  closedHeading: string;
  closedMessage: string;
}

/** The Link page's words in each language it speaks. */
export const LINK_STRINGS: Readonly<Record<LinkLanguage, Readonly<LinkStrings>>> = {
  en: {
    documentTitle: 'Connect your payroll account',
    brand: 'Payroll Link',
    sandboxBadge: 'Sandbox',
    closeLabel: 'Close Payroll Link',
    footer: 'Test mode: no real payroll account is changed.',
    waitingHeading: 'Getting ready',
    waitingMessage: 'Starting your secure session…',
    standaloneHeading: 'Open this page from the app',
    standaloneMessage:
      'This is the Payroll Link flow. It runs inside the app that asked you to connect your payroll account, which starts it for you. Go back to that app and start again there.',
    introHeading: (orgName, depositSwitch) =>
      `${orgName} wants to ${depositSwitch ? 'switch your direct deposit' : 'connect your payroll account'}`,
    introLead: 'It takes about a minute. Here is what happens:',
    introStepFind: 'Find your employer or payroll provider.',
    introStepLogIn: 'Log in with your payroll credentials.',
    introStepAllocate: 'Choose how much of each paycheck to deposit.',
    continue: 'Continue',
    introFinePrint: (orgName) => `Your credentials go to your payroll provider only; ${orgName} never sees them.`,
    searchHeading: 'Find your employer',
    searchLead: 'Search by employer or by payroll provider.',
    searchLabel: 'Employer or payroll provider',
    searchResultsLabel: 'Search results',
    searchFailed: 'The search failed. Try again.',
    searching: 'Searching…',
    noMatch: (query) => `No match for “${query}”.`,
    nothingYet: 'Nothing to show yet.',
    resultCount: (count, more) => `${count} ${count === 1 ? 'result' : 'results'}${more ? ' shown, more available' : ''}.`,
    loadMore: 'Load more',
    kind: { employer: 'Employer', payroll: 'Payroll provider', time_and_attendance: 'Time and attendance provider' },
    backToSearch: '‹ Back to search',
    loginHeading: (providerName) => `Log in to ${providerName ?? 'your payroll provider'}`,
    loginLead: 'Use the username and password you use for your payroll account.',
    username: 'Username',
    password: 'Password',
    missingCredentials: 'Enter your username and password.',
    loggingIn: 'Logging in…',
    logIn: 'Log in',
    wrongCredentials: 'That username and password did not work. Check them and try again.',
    oauthLead: (name) => `You log in on ${name ?? 'your platform'}'s own page, in a new window. This page goes on once you have.`,
    oauthLogIn: (name) => `Log in with ${name ?? 'your platform'}`,
    oauthWaiting: 'Finish logging in in the new window. This page goes on by itself.',
    oauthBlocked: 'Your browser blocked the new window.',
    oauthContinue: 'Continue in a new window',
    oauthRefused: 'The login window could not be opened here.',
    oauthWaitNear: (minutes) =>
      `Still logging in? This page stops waiting for the other window in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, unless you keep waiting.`,
    oauthWaitPassed: 'This page stopped waiting for the other window. Keep waiting, or try again in a new window.',
    jobWaitNear: (minutes) =>
      `This is taking longer than usual. This page stops checking on it in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, unless you keep waiting.`,
    jobWaitPassed: 'This page stopped checking on it. It may still finish: keep waiting to check again.',
    keepWaiting: 'Keep waiting',
    tryAgain: 'Try again',
    leaveQuestion: (depositSwitch) =>
      depositSwitch ? 'Your direct deposit switch is still running. Leave anyway?' : 'Your data is still being collected. Leave anyway?',
    leave: 'Leave',
    stay: 'Stay',
    unreachable: 'We could not reach the service. Check your connection and try again.',
    sandboxCredentialsHeading: 'Sandbox test credentials',
    sandboxPassword: ['Password for every test user: ', '. Any other password is refused.'],
    sandboxOutcomes: {
      user_good: 'Connects; the deposit switch succeeds.',
      user_mfa: 'Asks for a one-time code: mfa_code.',
      user_error: 'Connects; the deposit switch then fails.',
      user_pending: 'Connects; the job stays pending, then fails.',
    },
    use: 'Use',
    useLabel: (username) => `Use ${username}`,
    mfaHeading: 'Enter your one-time code',
    mfaLead: 'Your payroll provider sent a code to confirm it is you.',
    mfaLabel: 'One-time code',
    mfaSandboxHint: 'Sandbox: the code is ',
    missingCode: 'Enter the code.',
    wrongCode: 'That code is not right. Check it and try again.',
    checking: 'Checking…',
    verify: 'Verify',
    allocationHeading: 'Choose your deposit',
    allocationLead: (providerName) => `How much of each paycheck from ${providerName ?? 'your employer'} should go to this account?`,
    allocationLegend: 'Deposit amount',
    choices: {
      remainder: { label: 'My entire paycheck', hint: 'Everything left after your other deposits.' },
      amount: { label: 'A fixed amount', hint: 'The same amount from every paycheck.' },
      percentage: { label: 'A percentage', hint: 'A share of every paycheck.' },
    },
    amountLabel: 'Amount per paycheck (USD)',
    percentageLabel: 'Percentage of each paycheck',
    amountFormat: 'Enter an amount in dollars, such as 250 or 250.50.',
    amountPositive: 'Enter an amount greater than zero.',
    percentageRange: 'Enter a whole percentage from 1 to 100.',
    starting: 'Starting…',
    switchDeposit: 'Switch my deposit',
    runningDefault: 'Working on it',
    runningSwitch: 'Switching your direct deposit',
    runningSync: 'Syncing your account',
    runningStatus: 'This usually takes a few seconds. Please keep this window open.',
    successSwitchHeading: 'Your direct deposit is switched',
    successConnectHeading: 'Your account is connected',
    successSwitchMessage: (providerName) =>
      `Your paychecks${providerName ? ` from ${providerName}` : ''} will go to the new account from the next pay date.`,
    successConnectMessage: (orgName) => `${orgName ?? 'The app'} can now see your payroll data.`,
    done: 'Done',
    errorHeadings: {
      platformError: 'Your payroll provider could not finish',
      networkError: 'We could not reach the service',
    },
    errorHeading: 'Something went wrong',
    errorMessage: (error) => error?.message ?? '',
    errorCode: (code) => `Error code: ${code}`,
    close: 'Close',
    invalidTokenHeading: 'This link is no longer valid',
    invalidTokenMessage: 'It may have been used already, or it has expired. Close this window and start again from the app.',
    closedHeading: 'Session ended',
    closedMessage: 'You can close this window.',
  },
  es: {
    documentTitle: 'Conecta tu cuenta de nómina',
    brand: 'Payroll Link',
    sandboxBadge: 'Sandbox',
    closeLabel: 'Cerrar Payroll Link',
    footer: 'Modo de prueba: no se cambia ninguna cuenta de nómina real.',
    waitingHeading: 'Preparando todo',
    waitingMessage: 'Iniciando tu sesión segura…',
    standaloneHeading: 'Abre esta página desde la aplicación',
    standaloneMessage:
      'Este es el flujo de Payroll Link. Funciona dentro de la aplicación que te pidió conectar tu cuenta de nómina, que lo inicia por ti. Vuelve a esa aplicación y empieza de nuevo allí.',
    introHeading: (orgName, depositSwitch) =>
      `${orgName} quiere ${depositSwitch ? 'cambiar tu depósito directo' : 'conectar tu cuenta de nómina'}`,
    introLead: 'Tarda más o menos un minuto. Esto es lo que pasa:',
    introStepFind: 'Busca a tu empleador o a tu proveedor de nómina.',
    introStepLogIn: 'Inicia sesión con tus credenciales de nómina.',
    introStepAllocate: 'Elige cuánto de cada pago depositar.',
    continue: 'Continuar',
    introFinePrint: (orgName) => `Tus credenciales van solo a tu proveedor de nómina; ${orgName} nunca las ve.`,
    searchHeading: 'Busca a tu empleador',
    searchLead: 'Busca por empleador o por proveedor de nómina.',
    searchLabel: 'Empleador o proveedor de nómina',
    searchResultsLabel: 'Resultados de la búsqueda',
    searchFailed: 'La búsqueda falló. Inténtalo de nuevo.',
    searching: 'Buscando…',
    noMatch: (query) => `Nada coincide con «${query}».`,
    nothingYet: 'Todavía no hay nada que mostrar.',
    resultCount: (count, more) =>
      `${count} ${count === 1 ? 'resultado' : 'resultados'}${more ? (count === 1 ? ' mostrado; hay más' : ' mostrados; hay más') : ''}.`,
    loadMore: 'Cargar más',
    kind: { employer: 'Empleador', payroll: 'Proveedor de nómina', time_and_attendance: 'Proveedor de control de horario' },
    backToSearch: '‹ Volver a la búsqueda',
    loginHeading: (providerName) => `Inicia sesión en ${providerName ?? 'tu proveedor de nómina'}`,
    loginLead: 'Usa el usuario y la contraseña de tu cuenta de nómina.',
    username: 'Usuario',
    password: 'Contraseña',
    missingCredentials: 'Escribe tu usuario y tu contraseña.',
    loggingIn: 'Iniciando sesión…',
    logIn: 'Iniciar sesión',
    wrongCredentials: 'Ese usuario y esa contraseña no funcionaron. Revísalos e inténtalo de nuevo.',
    oauthLead: (name) =>
      `Inicias sesión en la página de ${name ?? 'tu plataforma'}, en una ventana nueva. Esta página sigue cuando lo hayas hecho.`,
    oauthLogIn: (name) => `Iniciar sesión con ${name ?? 'tu plataforma'}`,
    oauthWaiting: 'Termina de iniciar sesión en la ventana nueva. Esta página sigue sola.',
    oauthBlocked: 'Tu navegador bloqueó la ventana nueva.',
    oauthContinue: 'Continuar en una ventana nueva',
    oauthRefused: 'La ventana de inicio de sesión no se pudo abrir aquí.',
    oauthWaitNear: (minutes) =>
      `¿Sigues iniciando sesión? Esta página dejará de esperar a la otra ventana en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}, salvo que sigas esperando.`,
    oauthWaitPassed: 'Esta página dejó de esperar a la otra ventana. Sigue esperando o inténtalo de nuevo en una ventana nueva.',
    jobWaitNear: (minutes) =>
      `Esto está tardando más de lo normal. Esta página dejará de comprobarlo en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}, salvo que sigas esperando.`,
    jobWaitPassed: 'Esta página dejó de comprobarlo. Puede que aún termine: sigue esperando para volver a comprobarlo.',
    keepWaiting: 'Seguir esperando',
    tryAgain: 'Intentar de nuevo',
    leaveQuestion: (depositSwitch) =>
      depositSwitch
        ? 'El cambio de tu depósito directo sigue en curso. ¿Salir de todos modos?'
        : 'Tus datos se siguen recopilando. ¿Salir de todos modos?',
    leave: 'Salir',
    stay: 'Quedarme',
    unreachable: 'No pudimos comunicarnos con el servicio. Revisa tu conexión e inténtalo de nuevo.',
    sandboxCredentialsHeading: 'Credenciales de prueba del sandbox',
    sandboxPassword: ['Contraseña de todos los usuarios de prueba: ', '. Cualquier otra contraseña se rechaza.'],
    sandboxOutcomes: {
      user_good: 'Se conecta; el cambio de depósito sale bien.',
      user_mfa: 'Pide un código de un solo uso: mfa_code.',
      user_error: 'Se conecta; luego el cambio de depósito falla.',
      user_pending: 'Se conecta; el trabajo queda pendiente y luego falla.',
    },
    use: 'Usar',
    useLabel: (username) => `Usar ${username}`,
    mfaHeading: 'Escribe tu código de un solo uso',
    mfaLead: 'Tu proveedor de nómina envió un código para confirmar que eres tú.',
    mfaLabel: 'Código de un solo uso',
    mfaSandboxHint: 'Sandbox: el código es ',
    missingCode: 'Escribe el código.',
    wrongCode: 'Ese código no es correcto. Revísalo e inténtalo de nuevo.',
    checking: 'Comprobando…',
    verify: 'Verificar',
    allocationHeading: 'Elige tu depósito',
    allocationLead: (providerName) => `¿Cuánto de cada pago de ${providerName ?? 'tu empleador'} debe ir a esta cuenta?`,
    allocationLegend: 'Monto del depósito',
    choices: {
      remainder: { label: 'Todo mi pago', hint: 'Todo lo que queda después de tus otros depósitos.' },
      amount: { label: 'Un monto fijo', hint: 'El mismo monto de cada pago.' },
      percentage: { label: 'Un porcentaje', hint: 'Una parte de cada pago.' },
    },
    amountLabel: 'Monto por pago (USD)',
    percentageLabel: 'Porcentaje de cada pago',
    amountFormat: 'Escribe un monto en dólares, como 250 o 250.50.',
    amountPositive: 'Escribe un monto mayor que cero.',
    percentageRange: 'Escribe un porcentaje entero del 1 al 100.',
    starting: 'Iniciando…',
    switchDeposit: 'Cambiar mi depósito',
    runningDefault: 'Trabajando en ello',
    runningSwitch: 'Cambiando tu depósito directo',
    runningSync: 'Sincronizando tu cuenta',
    runningStatus: 'Esto suele tardar unos segundos. Mantén esta ventana abierta.',
    successSwitchHeading: 'Tu depósito directo está cambiado',
    successConnectHeading: 'Tu cuenta está conectada',
    successSwitchMessage: (providerName) =>
      `Tus pagos${providerName ? ` de ${providerName}` : ''} irán a la nueva cuenta a partir de la próxima fecha de pago.`,
    successConnectMessage: (orgName) => `${orgName ?? 'La aplicación'} ya puede ver tus datos de nómina.`,
    done: 'Listo',
    errorHeadings: {
      platformError: 'Tu proveedor de nómina no pudo terminar',
      networkError: 'No pudimos comunicarnos con el servicio',
    },
    errorHeading: 'Algo salió mal',
    // The service's own message is English; the Spanish page says what kind of failure it was instead.
    errorMessage: (error) =>
      error === null
        ? ''
        : error.type === 'platformError'
          ? 'El trabajo no terminó en tu proveedor de nómina. Puedes intentarlo de nuevo más tarde.'
          : error.type === 'networkError'
            ? 'Revisa tu conexión e inténtalo de nuevo.'
            : 'El flujo de Payroll Link no pudo continuar.',
    errorCode: (code) => `Código de error: ${code}`,
    close: 'Cerrar',
    invalidTokenHeading: 'Este enlace ya no es válido',
    invalidTokenMessage: 'Puede que ya se haya usado o que haya caducado. Cierra esta ventana y empieza de nuevo desde la aplicación.',
    closedHeading: 'Sesión terminada',
    closedMessage: 'Puedes cerrar esta ventana.',
  },
};

/** The language the page speaks for a BCP 47 tag: `es`, `es-MX` → Spanish; anything else (or nothing) → English. */
export function linkLanguage(tag: string | null | undefined): LinkLanguage {
  return tag && /^es(-|$)/i.test(tag.trim()) ? 'es' : 'en';
}

/** Speaks `tag`'s language from now on: the frame document's `<html lang>` and `<title>`. */
export function setPageLanguage(tag: string | null | undefined): void {
  const language = linkLanguage(tag);
  document.documentElement.lang = language;
  document.title = LINK_STRINGS[language].documentTitle;
}

/** The words for the language the frame document speaks now (its `<html lang>`). */
export function pageStrings(): Readonly<LinkStrings> {
  return LINK_STRINGS[linkLanguage(document.documentElement.lang)];
}
