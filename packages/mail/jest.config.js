import { workspaceProjects } from '../../jest.preset.js';

export default workspaceProjects(import.meta.dirname);
