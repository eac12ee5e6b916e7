/**
 * The few names `payroll-link/react-native` (react-native.ts) and `payroll-link/testing/react-native`
 * (testing/react-native.ts) take from `react-native` and `react-native-webview`, declared for the package's own build
 * and type check: the repository does not install React Native (the app does: both are optional peer dependencies).
 * The published declarations import these names from the real packages, whose types the app has.
 * test/packaging/react-native/ type-checks both sources against the real types (tsconfig.source.json) and an app's
 * use of the published ones.
 */
declare module 'react-native' {
  import type { FunctionComponent } from 'react';

  /** A style, or a nested list of them, as React Native takes it. */
  export type StyleProp<T> = T | readonly StyleProp<T>[] | null | undefined | false;
  /** A View's style: its fields are the app's `react-native` types' business. */
  export type ViewStyle = Record<string, unknown>;
  /** Opens a URL in the app that handles it (a browser for https). */
  export const Linking: { openURL(url: string): Promise<unknown> };
  /** A plain view: what the testing kit's WebView stand-in renders, for Testing Library to find by `testID`. */
  export const View: FunctionComponent<{ testID?: string; style?: StyleProp<ViewStyle> }>;
}

declare module 'react-native-webview' {
  import type { FunctionComponent } from 'react';
  import type { StyleProp, ViewStyle } from 'react-native';

  /** A message from the page: `data` as posted, `url` the sending frame's (react-native-webview 13.13.1 and later). */
  export interface WebViewMessageEvent {
    nativeEvent: { url: string; data: string };
  }
  /** A navigation the WebView asks about: `isTopFrame` is false for a frame's on iOS, true on Android. */
  export interface ShouldStartLoadRequest {
    url: string;
    isTopFrame: boolean;
  }
  /** The WebView's props: those react-native.ts sets (the real ones are many more; `source` may be HTML there). */
  export interface WebViewProps {
    source?: { uri: string };
    style?: StyleProp<ViewStyle>;
    onMessage?: (event: WebViewMessageEvent) => void;
    onShouldStartLoadWithRequest?: (request: ShouldStartLoadRequest) => boolean;
    originWhitelist?: string[];
  }
  /** The WebView. */
  export const WebView: FunctionComponent<WebViewProps>;
}
