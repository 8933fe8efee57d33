import { PRODUCT_NAME } from '@hasta/contracts/constants';

import { Page } from '../../../components/page';

export function WaitlistRoute() {
  return (
    <Page
      title={`Join the ${PRODUCT_NAME} Waitlist`}
      lead="Be among the first to pay with your palm when Hasta launches in your city."
    >
      <p className="max-w-3xl text-slate-600">The waitlist sign-up form opens here in an upcoming update.</p>
    </Page>
  );
}
