import { workspaceProjects } from '../../jest.preset.js';

// No infrastructure: ESLint's Node API on fixture strings (an integration project without servers).

export default workspaceProjects(import.meta.dirname);
