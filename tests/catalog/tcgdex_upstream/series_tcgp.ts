import { Serie } from 'models/serie'

const serie: Serie = {
	id: "tcgp",
	name: {
		en: "Pokémon TCG Pocket",
		de: "Pokémon‑Sammelkartenspiel‑Pocket",
		es: "Juego de Cartas Coleccionables Pokémon Pocket",
		fr: "Jeu de Cartes à Collectionner Pokémon Pocket",
		it: "Gioco di Carte Collezionabili Pokémon Pocket",
		'pt-br': "Pokémon Estampas Ilustradas Pocket",
		ko: "포켓몬 카드 게임",
		ja: 'Pokémon Trading Card Game Pocket'
	},
}

export default serie
