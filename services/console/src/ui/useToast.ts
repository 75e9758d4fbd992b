export { useToast, Toaster, ToastProvider } from './toast.js';
