import { RouterProvider } from 'react-router/dom';

import { router } from './router';

/** The query client is not provided here but per page (see router.tsx), to keep it off the first load. */
export function App() {
  return <RouterProvider router={router} />;
}
