import type { RouteObject } from 'react-router';
import { Audit } from '../screens/audit.tsx';
import { Clients } from '../screens/clients.tsx';
import { Enrol } from '../screens/enrol.tsx';
import { Home } from '../screens/home.tsx';
import { Member } from '../screens/member.tsx';
import { Members } from '../screens/members.tsx';
import { Operators } from '../screens/operators.tsx';
import { SignIn } from '../screens/sign-in.tsx';
import { Layout } from './layout.tsx';

/** The console's routes under /admin (the server answers index.html for each: apps/server/src/http/spa.ts). */
export const routes: RouteObject[] = [
  { path: '/login', element: <SignIn /> },
  { path: '/enrol', element: <Enrol /> },
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: <Home /> },
      { path: 'members', element: <Members /> },
      { path: 'members/:memberId', element: <Member /> },
      { path: 'audit', element: <Audit /> },
      { path: 'clients', element: <Clients /> },
      { path: 'operators', element: <Operators /> },
      { path: '*', element: <p>ページが見つかりません。</p> },
    ],
  },
];
