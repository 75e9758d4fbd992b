export { Toaster } from './toast.js';
