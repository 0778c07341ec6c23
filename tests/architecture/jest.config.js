import preset from '../../jest.preset.js';

// No infrastructure: ESLint's Node API on fixture strings.
export default { ...preset };
