import '@fontsource-variable/inter';
import '@fontsource-variable/jetbrains-mono';
import './styles/global.css';
import { startConsole } from './app/start';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render Vigil into.');
void startConsole(container);
