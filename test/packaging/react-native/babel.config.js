// The React Native app template's Babel configuration, as it is.
module.exports = {
  presets: ['module:@react-native/babel-preset'],
};
