import { Page } from '../../../components/page';

export function PalmRegisterRoute() {
  return (
    <Page title="Palm Registration" lead="Register your left hand, your right hand, or both.">
      <p className="max-w-3xl text-slate-600">
        The palm scanner opens here in an upcoming update. Only an irreversible hash of each scan will be
        kept.
      </p>
    </Page>
  );
}
